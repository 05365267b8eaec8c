import { describe, expect, it } from "vitest";
import type { RpcEvent } from "../../../src/process/index.ts";
import { activityStep, lastLine, toolLine } from "../../../src/team/activity.ts";
import { gaugeFromStats } from "../../../src/team/context.ts";
import { outputOfRpc } from "../../../src/team/teammate-output.ts";

describe("activity line (R61, R62)", () => {
  it("summarises a tool call by its telling argument", () => {
    expect(toolLine("bash", { command: "npm test\nnpm run lint" })).toBe("bash npm test");
    expect(toolLine("edit", { path: "src/a.ts", oldText: "x" })).toBe("edit src/a.ts");
    expect(toolLine("send_message", { to: "leader", message: "done" })).toBe("send_message → leader");
    expect(toolLine("odd", [1, 2])).toBe("odd");
    expect(toolLine("bash", { command: "x".repeat(500) }).length).toBeLessThanOrEqual(160);
  });

  it("takes the last non-empty line of text", () => {
    expect(lastLine("first\n\n  second  \n\n")).toBe("second");
    expect(lastLine("   ")).toBe("");
  });

  it("maps RPC events to steps", () => {
    const start = { type: "tool_execution_start", toolCallId: "1", toolName: "read", args: { path: "README.md" } } as RpcEvent;
    expect(activityStep(outputOfRpc(start))).toEqual({ kind: "tool", line: "read README.md" });
    const delta = { type: "message_update", assistantMessageEvent: { type: "text_delta", delta: "hi" } } as unknown as RpcEvent;
    expect(activityStep(outputOfRpc(delta))).toEqual({ kind: "text", delta: "hi" });
    expect(activityStep(outputOfRpc({ type: "agent_start" } as RpcEvent))).toEqual({ kind: "run" });
    expect(activityStep(outputOfRpc({ type: "agent_end" } as unknown as RpcEvent))).toEqual({ kind: "none" });
  });
});

describe("context gauge from get_session_stats", () => {
  it("reads contextUsage, with nulls right after a compaction", () => {
    expect(gaugeFromStats({ contextUsage: { tokens: 45_000, contextWindow: 200_000, percent: 22.5 } })).toEqual({ tokens: 45_000, window: 200_000, percent: 22.5 });
    expect(gaugeFromStats({ contextUsage: { tokens: null, contextWindow: 200_000, percent: null } })).toEqual({ tokens: null, window: 200_000, percent: null });
  });
  it("has no gauge without a window or with odd fields", () => {
    expect(gaugeFromStats({})).toBeUndefined();
    expect(gaugeFromStats({ contextUsage: { tokens: "x", contextWindow: 1, percent: 1 } })).toBeUndefined();
    expect(gaugeFromStats({ contextUsage: { tokens: 1, contextWindow: 0, percent: 1 } })).toBeUndefined();
    expect(gaugeFromStats(null)).toBeUndefined();
  });
});
