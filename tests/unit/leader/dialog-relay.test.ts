import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { ExtensionUIDialogOptions } from "@earendil-works/pi-coding-agent";
import { DialogRelay, type DialogUi } from "../../../src/leader/dialog-relay.ts";
import type { RpcUiDialogRequest } from "../../../src/process/index.ts";

/** One call the relay made to the leader's UI; `answer` resolves it like the user would. */
interface Shown {
  method: string;
  title: string;
  detail: unknown;
  opts: ExtensionUIDialogOptions | undefined;
  answer(value: unknown): void;
}

/** A leader UI whose dialogs the test answers; a dialog resolves with Pi's default when its signal aborts. */
function fakeUi() {
  const shown: Shown[] = [];
  const open = (method: string, fallback: unknown) => (title: string, detail: unknown, opts?: ExtensionUIDialogOptions) =>
    new Promise<never>((resolve) => {
      const answer = resolve as (value: unknown) => void;
      opts?.signal?.addEventListener("abort", () => answer(fallback), { once: true });
      shown.push({ method, title, detail, opts, answer });
    });
  const ui = { select: open("select", undefined), confirm: open("confirm", false), input: open("input", undefined), editor: open("editor", undefined) } as unknown as DialogUi;
  return { ui, shown };
}

const confirm = (id: string, title = "Allow rm -rf build?", timeout?: number): RpcUiDialogRequest => ({ type: "extension_ui_request", id, method: "confirm", title, message: "deletes build/", ...(timeout ? { timeout } : {}) });
const select: RpcUiDialogRequest = { type: "extension_ui_request", id: "s", method: "select", title: "Which branch?", options: ["main", "dev"] };
const input: RpcUiDialogRequest = { type: "extension_ui_request", id: "i", method: "input", title: "Commit message?", placeholder: "fix: ..." };
const editor: RpcUiDialogRequest = { type: "extension_ui_request", id: "e", method: "editor", title: "Edit the plan", prefill: "1. a" };

function setup(options: { timeoutMs?: number; maxWaiting?: number } = {}) {
  const rows: { kind: string; from: string; to: string; body: string; receipt: string }[] = [];
  const notes: string[] = [];
  const relay = new DialogRelay({ feed: { mail: (r) => rows.push(r) }, note: (t) => notes.push(t), ...options });
  const { ui, shown } = fakeUi();
  relay.attach(ui, "tui");
  return { relay, rows, notes, shown };
}

const flush = () => vi.advanceTimersByTimeAsync(0);

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe("DialogRelay", () => {
  it("keeps dialogs waiting while held (the open console) and shows them once released; the deadline still runs", async () => {
    const t = setup({ timeoutMs: 60_000 });
    const release = t.relay.hold();
    const first = t.relay.ask("gate", confirm("c1"));
    void t.relay.ask("gate", confirm("c2"));
    expect(t.shown).toHaveLength(0);
    expect(t.relay.waiting).toBe(2);
    await vi.advanceTimersByTimeAsync(10_000);
    release();
    release(); // a second call does nothing
    expect(t.shown).toHaveLength(1);
    expect(t.shown[0]!.opts?.timeout).toBe(50_000);
    t.shown[0]!.answer(true);
    await expect(first).resolves.toEqual({ confirmed: true });
    await flush();
    expect(t.shown).toHaveLength(2);
  });

  it("shows a confirm with the teammate's name in the title and returns the answer, with a Mail row", async () => {
    const t = setup({ timeoutMs: 60_000 });
    const answer = t.relay.ask("gate", confirm("c1"));
    expect(t.shown).toHaveLength(1);
    expect(t.shown[0]).toMatchObject({ method: "confirm", title: "@gate: Allow rm -rf build?", detail: "deletes build/", opts: { timeout: 60_000 } });
    expect(t.shown[0]!.opts?.signal?.aborted).toBe(false);
    t.shown[0]!.answer(true);
    await expect(answer).resolves.toEqual({ confirmed: true });
    expect(t.rows).toEqual([{ kind: "dialog", from: "gate", to: "user", body: "confirm: Allow rm -rf build?\ndeletes build/", receipt: "answered: yes" }]);
  });

  it("relays select, input and editor answers, and a dismissal as cancelled by the user", async () => {
    const t = setup();
    const answers = [t.relay.ask("a", select), t.relay.ask("b", input), t.relay.ask("c", editor), t.relay.ask("d", confirm("c2"))];
    const replies: unknown[] = ["dev", "fix: the gate", undefined, false];
    for (const [i, reply] of replies.entries()) {
      await flush();
      expect(t.shown).toHaveLength(i + 1); // one at a time, in arrival order
      t.shown[i]!.answer(reply);
    }
    expect(await Promise.all(answers)).toEqual([{ value: "dev" }, { value: "fix: the gate" }, undefined, { confirmed: false }]);
    expect(t.shown.map((s) => [s.title, s.detail])).toEqual([
      ["@a: Which branch?", ["main", "dev"]],
      ["@b: Commit message?", "fix: ..."],
      ["@c: Edit the plan", "1. a"],
      ["@d: Allow rm -rf build?", "deletes build/"],
    ]);
    expect(t.rows.map((r) => [r.from, r.receipt])).toEqual([
      ["a", "chose: dev"],
      ["b", 'answered: "fix: the gate"'],
      ["c", "cancelled (by the user)"],
      ["d", "answered: no"],
    ]);
    expect(t.rows[0]!.body).toBe("select: Which branch?\noptions: main | dev");
  });

  it("counts the time in the queue against each dialog's timeout, and closes a dialog that times out on screen", async () => {
    const t = setup({ timeoutMs: 1000 });
    const first = t.relay.ask("gate", confirm("c1"));
    const second = t.relay.ask("gate", confirm("c2", "Second?"));
    await vi.advanceTimersByTimeAsync(600);
    expect(t.relay.waiting).toBe(1);
    t.shown[0]!.answer(true);
    await expect(first).resolves.toEqual({ confirmed: true });
    await flush();
    expect(t.shown[1]).toMatchObject({ title: "@gate: Second?", opts: { timeout: 400 } });
    await vi.advanceTimersByTimeAsync(400);
    await expect(second).resolves.toBeUndefined();
    expect(t.shown[1]!.opts?.signal?.aborted).toBe(true);
    expect(t.rows.map((r) => r.receipt)).toEqual(["answered: yes", "cancelled (timeout 1s)"]);
  });

  it("cancels a queued dialog whose time runs out before it is shown; the dialog's own timeout wins", async () => {
    const t = setup({ timeoutMs: 300_000 });
    const first = t.relay.ask("a", confirm("c1"));
    const second = t.relay.ask("b", confirm("c2", "Quick?", 2000));
    await vi.advanceTimersByTimeAsync(2000);
    await expect(second).resolves.toBeUndefined();
    expect(t.shown).toHaveLength(1); // never shown
    expect(t.rows).toEqual([expect.objectContaining({ from: "b", receipt: "cancelled (timeout 2s)" })]);
    await vi.advanceTimersByTimeAsync(298_000);
    await expect(first).resolves.toBeUndefined();
    expect(t.rows.at(-1)?.receipt).toBe("cancelled (timeout 5m)");
    await flush();
    expect(t.shown).toHaveLength(1); // the expired one is not shown after all
  });

  it("drops the dialog of a teammate that stopped, queued or on screen, and shows the next", async () => {
    const t = setup();
    const stopA = new AbortController();
    const stopB = new AbortController();
    const a = t.relay.ask("a", confirm("c1"), stopA.signal);
    const b = t.relay.ask("b", confirm("c2"), stopB.signal);
    const c = t.relay.ask("c", confirm("c3"));
    stopB.abort();
    await expect(b).resolves.toBeUndefined();
    stopA.abort();
    await expect(a).resolves.toBeUndefined();
    expect(t.shown[0]!.opts?.signal?.aborted).toBe(true);
    await flush();
    expect(t.shown.map((s) => s.title)).toEqual(["@a: Allow rm -rf build?", "@c: Allow rm -rf build?"]);
    t.shown[1]!.answer(true);
    await expect(c).resolves.toEqual({ confirmed: true });
    expect(t.rows.map((r) => `${r.from} ${r.receipt}`)).toEqual(["b cancelled (teammate stopped)", "a cancelled (teammate stopped)", "c answered: yes"]);
    expect(t.relay.ask("d", confirm("c4"), stopA.signal)).toBeUndefined(); // already stopped: cancelled at once
  });

  it("cancels at once, with a note, beyond maxWaiting, and a select without options", async () => {
    const t = setup({ maxWaiting: 1 });
    void t.relay.ask("a", confirm("c1"));
    void t.relay.ask("b", confirm("c2"));
    expect(t.relay.ask("c", confirm("c3"))).toBeUndefined();
    expect(t.notes).toEqual(['@c: its confirm dialog "Allow rm -rf build?" was cancelled: 1 dialogs were already waiting for the user.']);
    expect(t.relay.ask("d", { ...select, options: [] })).toBeUndefined();
    expect(t.rows.map((r) => `${r.from} ${r.receipt}`)).toEqual(["c cancelled (1 dialogs already waiting)", "d cancelled (select without options)"]);
  });

  it("without a UI (print mode) cancels every dialog at once, and never shows one", () => {
    const rows: string[] = [];
    const relay = new DialogRelay({ feed: { mail: (r) => rows.push(`${r.from} ${r.receipt}`) } });
    relay.attach(undefined, "print");
    expect(relay.ask("gate", confirm("c1"))).toBeUndefined();
    expect(rows).toEqual(["gate cancelled (print mode)"]);
  });

  it("at session end cancels what waits and what is shown, and cancels later dialogs at once", async () => {
    const t = setup();
    const a = t.relay.ask("a", confirm("c1"));
    const b = t.relay.ask("b", input);
    t.relay.close();
    t.relay.close();
    await expect(Promise.all([a, b])).resolves.toEqual([undefined, undefined]);
    expect(t.shown[0]!.opts?.signal?.aborted).toBe(true);
    expect(t.relay.ask("c", confirm("c3"))).toBeUndefined();
    expect(t.rows.map((r) => `${r.from} ${r.receipt}`)).toEqual(["b cancelled (session ended)", "a cancelled (session ended)", "c cancelled (session ended)"]);
    await flush();
    expect(t.shown).toHaveLength(1);
  });

  it("survives a UI that throws or a feed that throws: the dialog is cancelled and the next is shown", async () => {
    const notes: string[] = [];
    const { ui, shown } = fakeUi();
    const broken = { ...ui, confirm: () => { throw new Error("no terminal"); } } as unknown as DialogUi;
    const relay = new DialogRelay({ feed: { mail: () => { throw new Error("feed down"); } }, note: (t) => notes.push(t) });
    relay.attach(broken, "tui");
    await expect(relay.ask("a", confirm("c1"))).resolves.toBeUndefined();
    const next = relay.ask("b", input);
    await flush();
    shown[0]!.answer("ok");
    await expect(next).resolves.toEqual({ value: "ok" });
    expect(notes).toEqual([
      "@a: showing its confirm dialog failed: no terminal",
      "@a: could not record its dialog: Error: feed down",
      "@b: could not record its dialog: Error: feed down",
    ]);
  });

  it("releases a teammate whose editor times out at once, and shows the next dialog once the editor closes", async () => {
    const t = setup({ timeoutMs: 1000 });
    const first = t.relay.ask("a", editor);
    const second = t.relay.ask("b", confirm("c2", "Next?", 60_000));
    await vi.advanceTimersByTimeAsync(1000);
    await expect(first).resolves.toBeUndefined();
    expect(t.shown).toHaveLength(1); // the editor has no signal: it is still open
    t.shown[0]!.answer("late text");
    await flush();
    expect(t.shown[1]?.title).toBe("@b: Next?");
    t.shown[1]!.answer(true);
    await expect(second).resolves.toEqual({ confirmed: true });
    expect(t.rows.map((r) => `${r.from} ${r.receipt}`)).toEqual(["a cancelled (timeout 1s)", "b answered: yes"]);
  });
});
