import { afterEach, describe, expect, it, vi } from "vitest";
import { TeamError } from "../../../src/errors.ts";
import {
  ChildExitedError,
  RpcCommandError,
  type RpcCommand,
  type RpcDiagnostic,
  type RpcEvent,
  type UiRequestRecord,
} from "../../../src/process/index.ts";
import { fakeChild } from "../../support/fake-rpc-child.ts";

const STATE = {
  thinkingLevel: "off",
  isStreaming: false,
  isCompacting: false,
  steeringMode: "one-at-a-time",
  followUpMode: "one-at-a-time",
  sessionId: "s",
  autoCompactionEnabled: true,
  messageCount: 0,
  pendingMessageCount: 0,
};

afterEach(() => {
  vi.useRealTimers();
});

describe("RpcChild requests", () => {
  it("correlates responses by id, not by order", async () => {
    const fake = fakeChild();
    const firstWritten = fake.nextWritten();
    const state = fake.client.getState();
    const first = await firstWritten;
    const secondWritten = fake.nextWritten();
    const text = fake.client.getLastAssistantText();
    const second = await secondWritten;
    expect(first.id).not.toBe(second.id);
    fake.reply({ id: second.id, type: "response", command: "get_last_assistant_text", success: true, data: { text: "done" } });
    fake.reply({ id: first.id, type: "response", command: "get_state", success: true, data: STATE });
    await expect(text).resolves.toBe("done");
    await expect(state).resolves.toMatchObject({ sessionId: "s" });
    expect(fake.client.pendingCount).toBe(0);
  });

  it("rejects success:false with RpcCommandError naming the command and Pi's error", async () => {
    const fake = fakeChild();
    const written = fake.nextWritten();
    const result = fake.client.send({ type: "set_model", provider: "nope", modelId: "x" });
    const command = await written;
    fake.reply({ id: command.id, type: "response", command: "set_model", success: false, error: "Model not found: nope/x" });
    const error = await result.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RpcCommandError);
    expect(error).toMatchObject({ code: "invalid_input", command: "set_model", piError: "Model not found: nope/x" });
    expect((error as Error).message).toContain("set_model");
    expect((error as Error).message).toContain("Model not found: nope/x");
  });

  it("always puts streamingBehavior on a prompt, and refuses a prompt without one (L3)", async () => {
    const fake = fakeChild();
    const written = fake.nextWritten();
    const prompt = fake.client.prompt("hello", { streamingBehavior: "followUp" });
    const command = await written;
    expect(command).toMatchObject({ type: "prompt", message: "hello", streamingBehavior: "followUp" });
    fake.reply({ id: command.id, type: "response", command: "prompt", success: true, data: { disposition: "started" } });
    await expect(prompt).resolves.toEqual({ disposition: "started" });

    const bad = { type: "prompt", message: "x" } as unknown as RpcCommand;
    await expect(fake.client.send(bad)).rejects.toMatchObject({ code: "invalid_input" });
    expect(fake.written).toHaveLength(1);
  });

  it("times out a silent request with code timeout and the stderr tail", async () => {
    const fake = fakeChild({ requestTimeoutMs: 5 });
    const error = await fake.client.getState().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TeamError);
    expect(error).toMatchObject({ code: "timeout" });
    expect((error as Error).message).toMatch(/get_state \(id r1\) within 5 ms[\s\S]*panic: out of cheese/);
    expect(fake.client.pendingCount).toBe(0);
  });

  it("counts a response arriving after its timeout as unmatched", async () => {
    const fake = fakeChild({ requestTimeoutMs: 5 });
    const written = fake.nextWritten();
    await fake.client.getState().catch(() => undefined);
    const command = await written;
    const diagnostic = new Promise<RpcDiagnostic>((resolve) => fake.client.onDiagnostic(resolve));
    fake.reply({ id: command.id, type: "response", command: "get_state", success: true, data: STATE });
    expect(await diagnostic).toMatchObject({ kind: "protocol_violation", violation: { reason: "unmatched_response" } });
    expect(fake.client.stats.violationsByReason.unmatched_response).toBe(1);
  });

  it("clears the request timer when the request settles", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const fake = fakeChild({ requestTimeoutMs: 60_000 });
    const written = fake.nextWritten();
    const state = fake.client.getState();
    expect(vi.getTimerCount()).toBe(1);
    const command = await written;
    fake.reply({ id: command.id, type: "response", command: "get_state", success: true, data: STATE });
    await state;
    expect(vi.getTimerCount()).toBe(0);
  });

  it("rejects with protocol_violation when the data does not fit the command", async () => {
    const fake = fakeChild();
    const written = fake.nextWritten();
    const state = fake.client.getState();
    const command = await written;
    fake.reply({ id: command.id, type: "response", command: "get_state", success: true, data: { isStreaming: "no" } });
    await expect(state).rejects.toMatchObject({ code: "protocol_violation" });
    expect(fake.client.stats.violationsByReason.bad_response_data).toBe(1);
  });

  it("rejects when the response names another command than the one sent", async () => {
    const fake = fakeChild();
    const written = fake.nextWritten();
    const abort = fake.client.abort();
    const command = await written;
    fake.reply({ id: command.id, type: "response", command: "get_state", success: true, data: STATE });
    await expect(abort).rejects.toMatchObject({ code: "protocol_violation" });
  });
});

describe("RpcChild end of life", () => {
  it("rejects every pending request at once with one ChildExitedError (code, signal, stderr)", async () => {
    const fake = fakeChild();
    const requests = [fake.client.getState(), fake.client.prompt("x", { streamingBehavior: "steer" }), fake.client.abort()];
    const waiter = fake.client.nextEvent("agent_settled");
    fake.client.close({ code: null, signal: "SIGKILL", reason: "crashed" });
    const errors = await Promise.all([...requests, waiter].map((p) => p.then(() => undefined, (e: unknown) => e)));
    expect(new Set(errors).size).toBe(1);
    const error = errors[0];
    expect(error).toBeInstanceOf(ChildExitedError);
    expect(error).toMatchObject({ code: "child_exited", exit: { signal: "SIGKILL", reason: "crashed" }, stderrTail: "panic: out of cheese" });
    expect((error as Error).message).toMatch(/signal SIGKILL, crashed.*get_state#r1, prompt#r2, abort#r3[\s\S]*panic: out of cheese/);
    await expect(fake.client.getState()).rejects.toBe(error);
    expect(fake.client.state).toBe("closed");
  });

  it("drops output that arrives after close (generation guard) and stops listening to stdout", async () => {
    const fake = fakeChild();
    const events: RpcEvent[] = [];
    fake.client.onEvent((event) => events.push(event));
    const started = fake.client.nextEvent("agent_start");
    fake.reply({ type: "agent_start" });
    await started;
    const before = events.length;
    expect(before).toBe(1);
    fake.client.close({ code: 0, signal: null, reason: "stopped" });
    fake.reply({ type: "agent_settled", aborted: false });
    await new Promise((resolve) => setImmediate(resolve));
    expect(events.length).toBe(before);
    expect(fake.fromChild.listenerCount("data")).toBe(0);
    expect(fake.fromChild.listenerCount("end")).toBe(0);
  });

  it("rejects pending requests at once when stdin errors", async () => {
    const fake = fakeChild();
    const written = fake.nextWritten();
    const state = fake.client.getState();
    await written;
    fake.toChild.destroy(Object.assign(new Error("write EPIPE"), { code: "EPIPE" }));
    const error = await state.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ChildExitedError);
    expect((error as Error).message).toMatch(/stdin failed \(write EPIPE\); requests pending: get_state#r1/);
    expect((error as ChildExitedError).cause).toMatchObject({ code: "EPIPE" });
    expect(fake.client.state).toBe("input_closed");
    await expect(fake.client.abort()).rejects.toBeInstanceOf(ChildExitedError);
  });

  it("endInput refuses new commands but lets pending ones finish", async () => {
    const fake = fakeChild();
    const written = fake.nextWritten();
    const state = fake.client.getState();
    const command = await written;
    fake.client.endInput("it is being stopped");
    await expect(fake.client.getState()).rejects.toMatchObject({ code: "child_exited", message: expect.stringContaining("being stopped") });
    fake.reply({ id: command.id, type: "response", command: "get_state", success: true, data: STATE });
    await expect(state).resolves.toMatchObject({ sessionId: "s" });
    expect(fake.toChild.writableEnded).toBe(true);
  });
});

describe("RpcChild events and UI requests", () => {
  it("answers dialogs with cancelled at once, records fire-and-forget requests unanswered", async () => {
    const fake = fakeChild();
    const records: UiRequestRecord[] = [];
    const three = new Promise<void>((resolve) =>
      fake.client.onUiRequest((record) => {
        records.push(record);
        if (records.length === 3) resolve();
      }),
    );
    const answer = fake.nextWritten();
    fake.reply({ type: "extension_ui_request", id: "n1", method: "notify", message: "hi" });
    fake.reply({ type: "extension_ui_request", id: "d1", method: "select", title: "Pick", options: ["a", "b"] });
    fake.reply({ type: "extension_ui_request", id: "w1", method: "setWidget", widgetKey: "k", widgetLines: ["x"] });
    await three;
    expect(await answer).toEqual({ type: "extension_ui_response", id: "d1", cancelled: true });
    expect(records.map((r) => [r.request.id, r.answer])).toEqual([
      ["n1", "none"],
      ["d1", "cancelled"],
      ["w1", "none"],
    ]);
    expect(fake.client.uiRequests).toHaveLength(3);
    expect(fake.client.stats.dialogsCancelled).toBe(1);
    expect(fake.written).toHaveLength(1);
  });

  it("also cancels a UI request with an unknown method (it may be a newer dialog)", async () => {
    const fake = fakeChild();
    const answer = fake.nextWritten();
    fake.reply({ type: "extension_ui_request", id: "x1", method: "pickColor" });
    expect(await answer).toEqual({ type: "extension_ui_response", id: "x1", cancelled: true });
  });

  it("isolates a throwing listener and reports it", async () => {
    const fake = fakeChild();
    const seen: string[] = [];
    fake.client.onEvent(() => {
      throw new Error("listener bug");
    });
    fake.client.onEvent((event) => seen.push(event.type));
    const diagnostic = new Promise<RpcDiagnostic>((resolve) => fake.client.onDiagnostic(resolve));
    fake.reply({ type: "turn_start" });
    expect(await diagnostic).toMatchObject({ kind: "listener_error", channel: "event" });
    expect(seen).toEqual(["turn_start"]);
    expect(fake.client.stats.listenerErrors).toBe(1);
  });

  it("unsubscribes, resolves nextEvent by type and predicate, and tracks activity", async () => {
    const fake = fakeChild();
    const seen: string[] = [];
    const off = fake.client.onEvent((event) => seen.push(event.type));
    const settled = fake.client.nextEvent("agent_settled", { predicate: (e) => e.aborted });
    fake.reply({ type: "agent_settled", aborted: false });
    fake.reply({ type: "agent_settled", aborted: true });
    await expect(settled).resolves.toEqual({ type: "agent_settled", aborted: true });
    off();
    off();
    const started = fake.client.nextEvent("agent_start");
    fake.reply({ type: "agent_start" });
    await started;
    expect(seen).toEqual(["agent_settled", "agent_settled"]);
    expect(fake.client.lastActivityAt).toBe(1000);
    await expect(fake.client.nextEvent("agent_end", { timeoutMs: 5 })).rejects.toMatchObject({ code: "timeout" });
  });
});

describe("RpcChild end notification", () => {
  it("onEnd fires once (stdin failure then close), and at once for late subscribers", async () => {
    const fake = fakeChild();
    const ends: Error[] = [];
    fake.client.onEnd((error) => ends.push(error));
    fake.toChild.destroy(new Error("write EPIPE"));
    await new Promise((resolve) => setImmediate(resolve));
    fake.client.close({ code: 1, signal: null, reason: "crashed" });
    expect(ends).toHaveLength(1);
    const late: Error[] = [];
    fake.client.onEnd((error) => late.push(error));
    expect(late).toHaveLength(1);
    expect(late[0]?.message).toMatch(/exited \(code 1, crashed\)/); // close's error replaces the stdin one
    await expect(fake.client.nextEvent("agent_settled")).rejects.toBe(late[0]);
  });

  it("leaves a dialog unanswered (and says so) once stdin is closed", async () => {
    const fake = fakeChild();
    const record = new Promise<UiRequestRecord>((resolve) => fake.client.onUiRequest(resolve));
    fake.client.endInput("stopping");
    fake.reply({ type: "extension_ui_request", id: "d9", method: "input", title: "Name?" });
    expect((await record).answer).toBe("unanswered");
    expect(fake.client.stats.dialogsCancelled).toBe(0);
  });

  it("counts a throwing diagnostic listener without recursing", async () => {
    const fake = fakeChild();
    fake.client.onDiagnostic(() => {
      throw new Error("diagnostic listener bug");
    });
    const seen = new Promise<RpcDiagnostic>((resolve) => fake.client.onDiagnostic(resolve));
    fake.reply({ nope: true });
    expect(await seen).toMatchObject({ kind: "protocol_violation", violation: { reason: "missing_type" } });
    expect(fake.client.stats).toMatchObject({ protocolViolations: 1, listenerErrors: 1 });
  });
});
