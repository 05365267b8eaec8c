import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  IDENTITY_HEADER,
  identify,
  startScriptedModel,
  type ChatMessage,
  type ScriptedModel,
} from "../../support/scripted-model.ts";

interface Chunk {
  choices: { index: number; delta: Record<string, unknown>; finish_reason: string | null }[];
  usage?: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
}

/** Posts a streaming chat request and splits the SSE body into its `data:` payloads. */
async function chat(
  model: ScriptedModel,
  messages: ChatMessage[],
  opts: { identity?: string; tools?: string[]; signal?: AbortSignal } = {},
): Promise<{ status: number; contentType: string; data: string[]; body: string }> {
  const res = await fetch(`${model.url}/v1/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(opts.identity ? { [IDENTITY_HEADER]: opts.identity } : {}) },
    body: JSON.stringify({
      model: "scripted-1",
      stream: true,
      stream_options: { include_usage: true },
      messages,
      tools: (opts.tools ?? []).map((name) => ({ type: "function", function: { name, parameters: {} } })),
    }),
    ...(opts.signal ? { signal: opts.signal } : {}),
  });
  const body = await res.text();
  const data = body
    .split("\n\n")
    .filter((e) => e.startsWith("data: "))
    .map((e) => e.slice("data: ".length));
  return { status: res.status, contentType: res.headers.get("content-type") ?? "", data, body };
}

const chunks = (data: string[]): Chunk[] => data.filter((d) => d !== "[DONE]").map((d) => JSON.parse(d) as Chunk);

let model: ScriptedModel | undefined;
afterEach(async () => {
  await model?.close();
  model = undefined;
});

describe("scripted model", () => {
  it("streams text as content deltas, then finish_reason stop, a usage chunk and [DONE]", async () => {
    const text = "Hello from the scripted model, in several pieces.";
    model = await startScriptedModel({ handler: () => ({ text }) });
    const r = await chat(model, [
      { role: "system", content: "You are pi." },
      { role: "user", content: [{ type: "text", text: "say hello" }] },
    ], { tools: ["read", "bash"] });

    expect(r.status).toBe(200);
    expect(r.contentType).toContain("text/event-stream");
    expect(r.data.at(-1)).toBe("[DONE]");
    const cs = chunks(r.data);
    const deltas = cs.flatMap((c) => c.choices.map((ch) => ch.delta.content)).filter((x) => typeof x === "string");
    expect(deltas.filter((d) => d !== "").length).toBeGreaterThan(1);
    expect(deltas.join("")).toBe(text);
    const finishes = cs.flatMap((c) => c.choices.map((ch) => ch.finish_reason)).filter((f) => f !== null);
    expect(finishes).toEqual(["stop"]);
    const usage = cs.at(-1);
    expect(usage?.choices).toEqual([]);
    expect(usage?.usage?.completion_tokens).toBeGreaterThan(0);

    expect(model.calls).toHaveLength(1);
    const call = model.calls[0];
    expect(call).toMatchObject({ agent: "leader", role: "leader", seq: 1, model: "scripted-1", system: "You are pi.",
      lastUser: "say hello", toolResults: [], tools: ["read", "bash"] });
    expect(call?.reply).toEqual({ text });
  });

  it("streams tool calls by index with id, name and chunked JSON arguments, finish_reason tool_calls", async () => {
    model = await startScriptedModel({
      handler: () => ({
        text: "Let me look.",
        toolCalls: [
          { name: "read", arguments: { path: "README.md", note: "a somewhat long argument string" }, id: "call_read" },
          { name: "ls", arguments: {} },
        ],
      }),
    });
    const r = await chat(model, [{ role: "user", content: "look around" }], { identity: "worker/alice" });
    const cs = chunks(r.data);
    const calls = new Map<number, { id?: string; name?: string; args: string }>();
    for (const c of cs) {
      for (const ch of c.choices) {
        const tcs = (ch.delta.tool_calls ?? []) as { index: number; id?: string; function?: { name?: string; arguments?: string } }[];
        for (const tc of tcs) {
          const cur = calls.get(tc.index) ?? { args: "" };
          if (tc.id) cur.id = tc.id;
          if (tc.function?.name) cur.name = tc.function.name;
          cur.args += tc.function?.arguments ?? "";
          calls.set(tc.index, cur);
        }
      }
    }
    expect(calls.get(0)).toEqual({ id: "call_read", name: "read",
      args: JSON.stringify({ path: "README.md", note: "a somewhat long argument string" }) });
    expect(calls.get(1)).toEqual({ id: "call_1_1", name: "ls", args: "{}" });
    const argChunks = cs.flatMap((c) => c.choices).filter((ch) => Array.isArray(ch.delta.tool_calls)).length;
    expect(argChunks).toBeGreaterThan(3);
    expect(cs.flatMap((c) => c.choices.map((ch) => ch.finish_reason)).filter((f) => f !== null)).toEqual(["tool_calls"]);
    expect(model.calls[0]).toMatchObject({ agent: "alice", role: "worker" });
  });

  it("records the trailing tool results and the last user text", async () => {
    model = await startScriptedModel();
    await chat(model, [
      { role: "system", content: "sys" },
      { role: "user", content: "first" },
      { role: "assistant", content: null, tool_calls: [
        { id: "a", type: "function", function: { name: "ls", arguments: "{}" } },
        { id: "b", type: "function", function: { name: "read", arguments: "{}" } },
      ] },
      { role: "tool", tool_call_id: "a", content: "README.md" },
      { role: "tool", tool_call_id: "b", content: [{ type: "text", text: "# scripted" }] },
    ], { identity: "reviewer/-" });
    expect(model.calls[0]).toMatchObject({ agent: "reviewer", role: "reviewer", lastUser: "first",
      toolResults: [{ id: "a", content: "README.md" }, { id: "b", content: "# scripted" }] });
  });

  it("maps identity headers to agents", () => {
    expect(identify({})).toEqual({ agent: "leader", role: "leader" });
    expect(identify({ [IDENTITY_HEADER]: "-/-" })).toEqual({ agent: "leader", role: "leader" });
    expect(identify({ [IDENTITY_HEADER]: "-/alice" })).toEqual({ agent: "leader", role: "leader" });
    expect(identify({ [IDENTITY_HEADER]: "worker/bob" })).toEqual({ agent: "bob", role: "worker" });
    expect(identify({ [IDENTITY_HEADER]: "reviewer/t-7" })).toEqual({ agent: "reviewer:t-7", role: "reviewer" });
  });

  it("answers an error reply with an OpenAI-style error body and the given status", async () => {
    model = await startScriptedModel({ handler: (c) => (c.seq === 1 ? { error: "boom" } : { error: "bad", status: 400 }) });
    const a = await chat(model, [{ role: "user", content: "x" }]);
    expect(a.status).toBe(500);
    expect(JSON.parse(a.body)).toMatchObject({ error: { message: "boom" } });
    const b = await chat(model, [{ role: "user", content: "x" }]);
    expect(b.status).toBe(400);
  });

  it("answers 500 when the handler throws", async () => {
    model = await startScriptedModel({ handler: () => { throw new Error("no script for this"); } });
    const r = await chat(model, [{ role: "user", content: "x" }]);
    expect(r.status).toBe(500);
    expect(r.body).toContain("no script for this");
  });

  it("waits delayMs before answering and survives a client that disconnects meanwhile", async () => {
    model = await startScriptedModel({ handler: (c) => ({ text: `reply ${c.seq}`, delayMs: 150 }) });
    const t0 = Date.now();
    const ok = await chat(model, [{ role: "user", content: "slow" }]);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(140);
    expect(ok.data.at(-1)).toBe("[DONE]");

    const ac = new AbortController();
    const pending = chat(model, [{ role: "user", content: "abandoned" }], { signal: ac.signal });
    await model.waitForCall((c) => c.lastUser === "abandoned");
    ac.abort();
    await expect(pending).rejects.toThrow();
    await new Promise((r) => setTimeout(r, 200));
    const after = await chat(model, [{ role: "user", content: "still alive" }]);
    expect(after.status).toBe(200);
    expect(model.calls.map((c) => c.lastUser)).toEqual(["slow", "abandoned", "still alive"]);
  });

  it("waitForCall finds past and future calls and times out otherwise", async () => {
    model = await startScriptedModel();
    await chat(model, [{ role: "user", content: "one" }]);
    await expect(model.waitForCall((c) => c.lastUser === "one")).resolves.toMatchObject({ seq: 1 });
    const future = model.waitForCall((c) => c.lastUser === "two");
    await chat(model, [{ role: "user", content: "two" }], { identity: "worker/alice" });
    await expect(future).resolves.toMatchObject({ seq: 2, agent: "alice" });
    expect(model.callsOf("alice")).toHaveLength(1);
    await expect(model.waitForCall(() => false, 50)).rejects.toThrow(/no matching call within 50 ms/);
  });

  it("appends calls and replies to the log file as JSON lines", async () => {
    const dir = await mkdtemp(join(tmpdir(), "scripted-log-"));
    try {
      const logFile = join(dir, "calls.jsonl");
      model = await startScriptedModel({ logFile, handler: () => ({ text: "logged" }) });
      await chat(model, [{ role: "user", content: "hi" }]);
      const lines = (await readFile(logFile, "utf8")).trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
      expect(lines).toMatchObject([
        { kind: "call", seq: 1, agent: "leader", lastUser: "hi" },
        { kind: "reply", seq: 1, agent: "leader", reply: { text: "logged" } },
      ]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
