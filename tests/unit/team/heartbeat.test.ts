import { describe, expect, it } from "vitest";
import type { RpcEvent } from "../../../src/process/index.ts";
import { classifyOutput, formatDuration, nextDue, resolveHeartbeat } from "../../../src/team/heartbeat.ts";
import type { Activity } from "../../../src/team/lifecycle-types.ts";
import { outputOfRpc, usageOf } from "../../../src/team/teammate-output.ts";

const end = (message: Record<string, unknown>): RpcEvent => ({ type: "message_end", message: { role: "assistant", ...message } }) as RpcEvent;

describe("classifyOutput (L4)", () => {
  it("an empty assistant message_end, as at RPC startup, is not model output", () => {
    expect(classifyOutput(outputOfRpc(end({ content: [] })))).toBe("other");
    expect(classifyOutput(outputOfRpc(end({ content: [{ type: "text", text: "" }], usage: { totalTokens: 0 } })))).toBe("other");
  });

  it("text without usage is model output (providers that omit usage are not hung)", () => {
    expect(classifyOutput(outputOfRpc(end({ content: [{ type: "text", text: "hello" }] })))).toBe("model");
    expect(classifyOutput(outputOfRpc({ type: "message_update", assistantMessageEvent: { type: "text_delta", delta: "h" } } as RpcEvent))).toBe("model");
  });

  it("usage alone, a tool call or thinking is model output", () => {
    expect(classifyOutput(outputOfRpc(end({ content: [], usage: { totalTokens: 12 } })))).toBe("model");
    expect(classifyOutput(outputOfRpc(end({ content: [{ type: "toolCall", id: "1", name: "read", arguments: {} }] })))).toBe("model");
    expect(classifyOutput(outputOfRpc(end({ content: [{ type: "thinking", thinking: "hmm" }] })))).toBe("model");
  });

  it("a user message_end is not; tool starts and ends are told apart", () => {
    expect(classifyOutput(outputOfRpc({ type: "message_end", message: { role: "user", content: "hi" } } as RpcEvent))).toBe("other");
    expect(classifyOutput(outputOfRpc({ type: "tool_execution_start", toolCallId: "1", toolName: "bash", args: {} }))).toBe("tool_start");
    expect(classifyOutput(outputOfRpc({ type: "tool_execution_end", toolCallId: "1", toolName: "bash", result: {}, isError: false }))).toBe("tool_end");
    expect(classifyOutput(outputOfRpc({ type: "agent_start" }))).toBe("other");
  });
});

describe("thresholds", () => {
  it("defaults are 30 and 5 minutes; STALL 0 disables both, SILENT 0 only tier 2 (R53)", () => {
    expect(resolveHeartbeat({}).config).toEqual({ stallMs: 1_800_000, silentMs: 300_000 });
    expect(resolveHeartbeat({ PI_TEAMMATE_STALL_NOTICE_MS: "0", PI_TEAMMATE_SILENT_STALL_MS: "100" }).config).toEqual({ stallMs: 0, silentMs: 0 });
    expect(resolveHeartbeat({ PI_TEAMMATE_SILENT_STALL_MS: "0" }).config).toEqual({ stallMs: 1_800_000, silentMs: 0 });
  });

  it("a bad value keeps the default and says which variable, value and what is accepted", () => {
    const r = resolveHeartbeat({ PI_TEAMMATE_STALL_NOTICE_MS: "10m" });
    expect(r.config.stallMs).toBe(1_800_000);
    expect(r.warnings).toEqual([expect.stringMatching(/PI_TEAMMATE_STALL_NOTICE_MS="10m".*whole number of milliseconds/)]);
  });

  it("nextDue is the earliest tier still possible this episode", () => {
    const a: Activity = { lastOutputAt: 100, modelOutput: false, toolsRunning: 0, tokens: 0, cost: 0, noticed: false };
    expect(nextDue(a, { stallMs: 1000, silentMs: 300 })).toBe(400);
    expect(nextDue({ ...a, modelOutput: true }, { stallMs: 1000, silentMs: 300 })).toBe(1100);
    expect(nextDue({ ...a, noticed: true }, { stallMs: 1000, silentMs: 300 })).toBeUndefined();
    expect(nextDue(a, { stallMs: 0, silentMs: 0 })).toBeUndefined();
  });

  it("usage and durations", () => {
    expect(usageOf({ usage: { totalTokens: 40, cost: { total: 0.5 } } })).toEqual({ tokens: 40, cost: 0.5 });
    expect(usageOf({ usage: { input: 3, output: 4 } })).toEqual({ tokens: 7, cost: 0 });
    expect(usageOf({})).toEqual({ tokens: 0, cost: 0 });
    expect([45_000, 31 * 60_000, 125 * 60_000, 120 * 60_000].map(formatDuration)).toEqual(["45s", "31m", "2h 5m", "2h"]);
  });
});
