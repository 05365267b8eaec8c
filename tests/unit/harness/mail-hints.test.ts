import { describe, expect, it } from "vitest";
import { sentMailPaths } from "../../../src/harness/mail-hints.ts";
import type { RpcEvent } from "../../../src/process/index.ts";
import { runtimeLayoutAt } from "../../../src/store/index.ts";
import { outputOfRpc } from "../../../src/team/teammate-output.ts";
import type { Member } from "../../../src/team/member.ts";

const layout = runtimeLayoutAt("/rt");
const alice = { name: "alice", spawnId: "s-alice" } as Member;
const sent = (details: unknown, isError = false): RpcEvent => ({
  type: "tool_execution_end", toolCallId: "c1", toolName: "send_message", isError,
  result: { content: [{ type: "text", text: "queued" }], details } as never,
});

describe("sentMailPaths (the mail watch's safety net)", () => {
  it("names the sender's outbox after a report and the recipient's inbox after peer mail", () => {
    expect(sentMailPaths(alice, outputOfRpc(sent({ to: "leader", result: "queued", id: "m1", status: "completed" })), layout)).toEqual([layout.outbox("alice")]);
    expect(sentMailPaths(alice, outputOfRpc(sent({ to: "bob", result: "queued", id: "m2" })), layout)).toEqual([layout.inbox("bob")]);
  });

  it("names nothing for a failed send, another tool, another event or a result without a recipient", () => {
    expect(sentMailPaths(alice, outputOfRpc(sent({ to: "bob" }, true)), layout)).toEqual([]);
    expect(sentMailPaths(alice, outputOfRpc({ type: "tool_execution_end", toolCallId: "c", toolName: "read", result: {}, isError: false }), layout)).toEqual([]);
    expect(sentMailPaths(alice, outputOfRpc({ type: "tool_execution_start", toolCallId: "c", toolName: "send_message", args: { to: "bob" } }), layout)).toEqual([]);
    expect(sentMailPaths(alice, outputOfRpc(sent(undefined)), layout)).toEqual([]);
  });
});
