import { describe, expect, it } from "vitest";
import { dialogResponse, type AnswerUi, type RpcDiagnostic, type RpcUiDialogRequest, type UiAnswer, type UiRequestRecord } from "../../../src/process/index.ts";
import { fakeChild } from "../../support/fake-rpc-child.ts";

/** An answerer whose answers the test gives later, per dialog id; records what it was asked. */
function deferredAnswerer() {
  const asked: { request: RpcUiDialogRequest; signal: AbortSignal; answer: (a: UiAnswer | undefined) => void; fail: (e: Error) => void }[] = [];
  const answerUi: AnswerUi = (request, signal) =>
    new Promise<UiAnswer | undefined>((resolve, reject) => asked.push({ request, signal, answer: resolve, fail: reject }));
  const arrived = async (count: number): Promise<void> => {
    while (asked.length < count) await new Promise((r) => setImmediate(r));
  };
  return { answerUi, asked, arrived };
}

function records(fake: ReturnType<typeof fakeChild>): Promise<UiRequestRecord>[] {
  const out: ((r: UiRequestRecord) => void)[] = [];
  const promises = Array.from({ length: 8 }, () => new Promise<UiRequestRecord>((resolve) => out.push(resolve)));
  let i = 0;
  fake.client.onUiRequest((r) => out[i++]?.(r));
  return promises;
}

const confirm = { type: "extension_ui_request", id: "c1", method: "confirm", title: "Allow?", message: "rm -rf build" };
const select = { type: "extension_ui_request", id: "s1", method: "select", title: "Pick", options: ["a", "b"] };

describe("RpcChild answerUi", () => {
  it("waits for the answerer and writes its answer: confirmed for confirm, value for select", async () => {
    const a = deferredAnswerer();
    let clock = 1000;
    const fake = fakeChild({ answerUi: a.answerUi, now: () => clock });
    const seen = records(fake);
    fake.reply(confirm);
    fake.reply(select);
    await a.arrived(2);
    expect(a.asked.map((x) => x.request)).toEqual([
      { ...confirm, timeout: undefined },
      { ...select, timeout: undefined },
    ]);
    expect(fake.written).toEqual([]); // the child stays blocked while the answers are pending
    clock = 1001;
    a.asked[1]!.answer({ value: "b" }); // out of order: each answer carries its own id
    expect(await fake.nextWritten()).toEqual({ type: "extension_ui_response", id: "s1", value: "b" });
    a.asked[0]!.answer({ confirmed: true });
    expect(await fake.nextWritten()).toEqual({ type: "extension_ui_response", id: "c1", confirmed: true });
    expect((await seen[0]!).answer).toEqual({ value: "b" });
    expect(await seen[1]!).toMatchObject({ request: { id: "c1" }, answer: { confirmed: true }, at: 1000, answeredAt: 1001 });
    expect(fake.client.stats).toMatchObject({ dialogsAnswered: 2, dialogsCancelled: 0 });
  });

  it("cancels at once when the answerer returns undefined, and when its answer is undefined or cancelled", async () => {
    const answers: (Promise<UiAnswer | undefined> | undefined)[] = [undefined, Promise.resolve(undefined), Promise.resolve({ cancelled: true })];
    const fake = fakeChild({ answerUi: () => answers.shift() });
    for (const id of ["i1", "i2", "i3"]) fake.reply({ type: "extension_ui_request", id, method: "input", title: "Name?" });
    for (const id of ["i1", "i2", "i3"]) expect(await fake.nextWritten()).toEqual({ type: "extension_ui_response", id, cancelled: true });
    expect(fake.client.uiRequests.map((r) => r.answer)).toEqual(["cancelled", "cancelled", "cancelled"]);
    expect(fake.client.stats.dialogsCancelled).toBe(3);
  });

  it("never gives fire-and-forget or unknown-method requests to the answerer", async () => {
    const a = deferredAnswerer();
    const fake = fakeChild({ answerUi: a.answerUi });
    fake.reply({ type: "extension_ui_request", id: "n1", method: "notify", message: "hi" });
    fake.reply({ type: "extension_ui_request", id: "x1", method: "pickColor" });
    expect(await fake.nextWritten()).toEqual({ type: "extension_ui_response", id: "x1", cancelled: true });
    expect(a.asked).toEqual([]);
    expect(fake.client.uiRequests.map((r) => [r.request.id, r.answer])).toEqual([["n1", "none"], ["x1", "cancelled"]]);
  });

  it("cancels and reports an answer that does not fit the method, a throw and a rejection", async () => {
    const a = deferredAnswerer();
    let calls = 0;
    const fake = fakeChild({
      answerUi: (request, signal) => {
        if (++calls === 2) throw new Error("answerer bug");
        return a.answerUi(request, signal);
      },
    });
    const diagnostics: RpcDiagnostic[] = [];
    fake.client.onDiagnostic((d) => diagnostics.push(d));
    fake.reply(confirm);
    fake.reply({ ...confirm, id: "c2" });
    expect(await fake.nextWritten()).toEqual({ type: "extension_ui_response", id: "c2", cancelled: true });
    fake.reply({ ...select, id: "s3" });
    await a.arrived(2);
    a.asked[0]!.answer({ value: "yes" });
    expect(await fake.nextWritten()).toEqual({ type: "extension_ui_response", id: "c1", cancelled: true });
    a.asked[1]!.fail(new Error("ui gone"));
    expect(await fake.nextWritten()).toEqual({ type: "extension_ui_response", id: "s3", cancelled: true });
    const messages = diagnostics.map((d) => (d.kind === "listener_error" ? `${d.channel}: ${String(d.error)}` : d.kind));
    expect(messages).toEqual([
      "ui_request: Error: fake child: the dialog answerer threw for dialog c2 (confirm): answerer bug",
      'ui_request: Error: fake child: the dialog answerer gave {"value":"yes"}, which does not answer a confirm dialog (c1); it was cancelled',
      "ui_request: Error: fake child: the dialog answerer rejected for dialog s3 (select): ui gone",
    ]);
  });

  it("aborts the answerers' signal when stdin ends; a later answer is recorded unanswered, nothing written", async () => {
    const a = deferredAnswerer();
    const fake = fakeChild({ answerUi: a.answerUi });
    const seen = records(fake);
    fake.reply(confirm);
    await a.arrived(1);
    expect(a.asked[0]!.signal.aborted).toBe(false);
    fake.client.endInput("it is being stopped");
    expect(a.asked[0]!.signal.aborted).toBe(true);
    a.asked[0]!.answer({ confirmed: true });
    expect((await seen[0]!).answer).toBe("unanswered");
    expect(fake.written).toEqual([]);
  });

  it("after close a late answer is only logged (no listener hears it), and a dialog arriving with stdin closed is not asked", async () => {
    const a = deferredAnswerer();
    const fake = fakeChild({ answerUi: a.answerUi });
    const heard: UiRequestRecord[] = [];
    fake.client.onUiRequest((r) => heard.push(r));
    fake.reply(confirm);
    await a.arrived(1);
    fake.client.close({ code: 0, signal: null, reason: "exited" });
    expect(a.asked[0]!.signal.aborted).toBe(true);
    a.asked[0]!.answer({ confirmed: true });
    await new Promise((r) => setImmediate(r));
    expect(heard).toEqual([]);
    expect(fake.client.uiRequests.map((r) => r.answer)).toEqual(["unanswered"]);

    const b = deferredAnswerer();
    const other = fakeChild({ answerUi: b.answerUi });
    const record = new Promise<UiRequestRecord>((resolve) => other.client.onUiRequest(resolve));
    other.client.endInput("stopping");
    other.reply(select);
    expect((await record).answer).toBe("unanswered");
    expect(b.asked).toEqual([]);
  });
});

describe("RpcChild and a malformed UI request", () => {
  it("cancels a dialog whose fields do not parse (it would block the child), reports it, and never asks the answerer", async () => {
    const a = deferredAnswerer();
    const fake = fakeChild({ answerUi: a.answerUi });
    const diagnostics: RpcDiagnostic[] = [];
    fake.client.onDiagnostic((d) => diagnostics.push(d));
    fake.reply({ type: "extension_ui_request", id: "m1", method: "confirm", title: 42, message: "x" });
    expect(await fake.nextWritten()).toEqual({ type: "extension_ui_response", id: "m1", cancelled: true });
    expect(diagnostics[0]).toMatchObject({ kind: "protocol_violation", violation: { reason: "bad_shape" } });
    expect(fake.client.uiRequests).toMatchObject([{ request: { id: "m1", method: "unknown", rawMethod: "confirm" }, answer: "cancelled" }]);
    fake.reply({ type: "extension_ui_request", id: 7, method: "confirm" }); // no usable id: only reported
    fake.reply({ type: "turn_start" });
    await new Promise((r) => setImmediate(r));
    expect(fake.written).toHaveLength(1);
    expect(a.asked).toEqual([]);
  });
});

describe("dialogResponse", () => {
  const request = (method: "select" | "confirm" | "input" | "editor"): RpcUiDialogRequest =>
    method === "confirm" ? { type: "extension_ui_request", id: "q", method, title: "t", message: "m" } : method === "select" ? { type: "extension_ui_request", id: "q", method, title: "t", options: ["x"] } : { type: "extension_ui_request", id: "q", method, title: "t" };

  it("maps each answer to its wire form and says whether it fits the method", () => {
    expect(dialogResponse(request("editor"), { value: "text" })).toEqual({ response: { type: "extension_ui_response", id: "q", value: "text" }, fits: true });
    expect(dialogResponse(request("confirm"), { confirmed: false })).toEqual({ response: { type: "extension_ui_response", id: "q", confirmed: false }, fits: true });
    expect(dialogResponse(request("select"), undefined)).toEqual({ response: { type: "extension_ui_response", id: "q", cancelled: true }, fits: true });
    expect(dialogResponse(request("input"), { confirmed: true })).toEqual({ response: { type: "extension_ui_response", id: "q", cancelled: true }, fits: false });
  });
});
