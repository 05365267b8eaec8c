/**
 * Real pi processes against the scripted model: the default model from settings.json is picked
 * (no --provider/--model), a tool call round-trips through a real tool, and the identity header
 * tells the leader from teammates. The RPC handling here is deliberately minimal.
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { StringDecoder } from "node:string_decoder";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPiEnv, type PiEnv } from "../support/pi-env.ts";
import { IDENTITY_HEADER, startScriptedModel, type ScriptedModel } from "../support/scripted-model.ts";

type Record_ = Record<string, unknown> & { type: string };

interface Pi {
  proc: ChildProcessWithoutNullStreams;
  records: Record_[];
  stderr: () => string;
  send(cmd: Record<string, unknown>): void;
  request(cmd: Record<string, unknown>): Promise<Record_>;
  waitFor(pred: (r: Record_) => boolean, timeoutMs?: number): Promise<Record_>;
  exited: Promise<number | null>;
}

function startPi(env: PiEnv, extraEnv: Record<string, string>, args: string[]): Pi {
  const proc = spawn(env.nodePath, [env.piCli, "--mode", "rpc", "--no-session", ...args], {
    cwd: env.cwd,
    env: { ...env.env, ...extraEnv },
    stdio: ["pipe", "pipe", "pipe"],
  });
  const records: Record_[] = [];
  const listeners = new Set<(r: Record_) => void>();
  const decoder = new StringDecoder("utf8");
  let buf = "";
  proc.stdout.on("data", (chunk: Buffer) => {
    buf += decoder.write(chunk);
    for (let nl = buf.indexOf("\n"); nl >= 0; nl = buf.indexOf("\n")) {
      const line = buf.slice(0, nl).replace(/\r$/, "");
      buf = buf.slice(nl + 1);
      if (!line) continue;
      const rec = JSON.parse(line) as Record_;
      records.push(rec);
      for (const l of [...listeners]) l(rec);
    }
  });
  let err = "";
  proc.stderr.on("data", (c: Buffer) => (err += c.toString("utf8")));
  const exited = new Promise<number | null>((resolve) => proc.once("exit", (code) => resolve(code)));
  const waitFor = (pred: (r: Record_) => boolean, timeoutMs = 30_000): Promise<Record_> => {
    const found = records.find(pred);
    if (found) return Promise.resolve(found);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        listeners.delete(check);
        reject(new Error(`no matching record within ${timeoutMs} ms; stderr:\n${err}`));
      }, timeoutMs);
      const check = (r: Record_): void => {
        if (!pred(r)) return;
        clearTimeout(timer);
        listeners.delete(check);
        resolve(r);
      };
      listeners.add(check);
    });
  };
  let nextId = 0;
  const send = (cmd: Record<string, unknown>): void => {
    proc.stdin.write(`${JSON.stringify(cmd)}\n`);
  };
  return {
    proc,
    records,
    stderr: () => err,
    send,
    request(cmd) {
      const id = `t${++nextId}`;
      const reply = waitFor((r) => r.type === "response" && r.id === id);
      send({ ...cmd, id });
      return reply;
    },
    waitFor,
    exited,
  };
}

/** Closes stdin and asserts pi exits on its own within 10 s. */
async function closeAndExpectExit(pi: Pi): Promise<void> {
  pi.proc.stdin.end();
  const code = await Promise.race([pi.exited, new Promise<"timeout">((r) => setTimeout(() => r("timeout"), 10_000))]);
  if (code === "timeout") pi.proc.kill("SIGKILL");
  expect(code).toBe(0);
}

let model: ScriptedModel;
let env: PiEnv;

beforeAll(async () => {
  model = await startScriptedModel();
  env = await createPiEnv({ model });
});

afterAll(async () => {
  await model?.close();
  await env?.cleanup();
});

describe("scripted model with real pi", () => {
  it("is the default model of the leader, and a tool call round-trips through a real tool", async () => {
    model.setHandler((call) => {
      if (call.toolResults.length === 0) {
        return { text: "Reading it.", toolCalls: [{ name: "read", arguments: { path: "README.md" }, id: "call_read_1" }] };
      }
      return { text: `The README starts with: ${call.toolResults[0]?.content.split("\n")[0]}` };
    });
    const pi = startPi(env, {}, []);
    try {
      const state = await pi.request({ type: "get_state" });
      expect(state).toMatchObject({ success: true, data: { model: { provider: "scripted", id: "scripted-1" } } });

      const started = await pi.request({ type: "prompt", message: "What does the README say?" });
      expect(started).toMatchObject({ success: true, data: { disposition: "started" } });
      const settled = await pi.waitFor((r) => r.type === "agent_settled");
      expect(settled).toMatchObject({ aborted: false });

      const types = pi.records.map((r) => r.type);
      expect(types).toContain("agent_start");
      const toolEnd = pi.records.find((r) => r.type === "tool_execution_end");
      expect(toolEnd).toMatchObject({ toolCallId: "call_read_1", toolName: "read", isError: false });
      expect(JSON.stringify(toolEnd?.result)).toContain("# scripted project");
      const finalAssistant = pi.records.filter(
        (r) => r.type === "message_end" && (r.message as { role?: string }).role === "assistant",
      ).at(-1);
      expect(JSON.stringify(finalAssistant)).toContain("The README starts with: # scripted project");

      const calls = model.callsOf("leader");
      expect(calls).toHaveLength(2);
      expect(model.calls.every((c) => c.agent === "leader" && c.role === "leader")).toBe(true);
      // The leader really sends the identity header (pi ran the "!printf" with both vars unset).
      expect(calls[0]?.headers[IDENTITY_HEADER]).toBe("-/-");
      expect(calls[0]?.lastUser).toBe("What does the README say?");
      expect(calls[0]?.tools).toContain("read");
      expect(calls[0]?.system.length).toBeGreaterThan(0);
      expect(calls[1]?.toolResults).toHaveLength(1);
      expect(calls[1]?.toolResults[0]?.id).toBe("call_read_1");
      expect(calls[1]?.toolResults[0]?.content).toContain("# scripted project");
      const assistant = calls[1]?.messages.find((m) => m.role === "assistant");
      expect(assistant?.tool_calls?.[0]).toMatchObject({ id: "call_read_1", function: { name: "read" } });

      await closeAndExpectExit(pi);
    } finally {
      pi.proc.kill("SIGKILL");
    }
  });

  it("surfaces a scripted error, and a slow reply can be aborted by pi", async () => {
    model.setHandler((call) =>
      call.lastUser === "fail please" ? { error: "scripted outage" } : { text: "too late", delayMs: 5_000 },
    );
    const pi = startPi(env, {}, ["--no-extensions"]);
    try {
      await pi.request({ type: "prompt", message: "fail please" });
      await pi.waitFor((r) => r.type === "agent_settled");
      const failed = pi.records.find(
        (r) => r.type === "message_end" && (r.message as { role?: string }).role === "assistant",
      );
      expect(failed?.message).toMatchObject({ stopReason: "error" });
      expect(String((failed?.message as { errorMessage?: string }).errorMessage)).toContain("scripted outage");

      const seen = pi.records.length;
      await pi.request({ type: "prompt", message: "be slow" });
      await model.waitForCall((c) => c.lastUser === "be slow");
      const t0 = Date.now();
      await pi.request({ type: "abort" });
      const settled = await pi.waitFor((r) => r.type === "agent_settled" && pi.records.indexOf(r) >= seen);
      expect(settled).toMatchObject({ aborted: true });
      expect(Date.now() - t0).toBeLessThan(2_000);
      expect(JSON.stringify(pi.records.slice(seen))).not.toContain("too late");
      await closeAndExpectExit(pi);
    } finally {
      pi.proc.kill("SIGKILL");
    }
  });

  it("tells teammates and reviewers apart from the leader by their environment", async () => {
    model.setHandler((call) => ({ text: `hello ${call.agent}` }));
    const before = model.calls.length;
    const alice = startPi(env, { PI_TEAMS_ROLE: "worker", PI_TEAMS_NAME: "alice" }, ["--no-extensions"]);
    const reviewer = startPi(env, { PI_TEAMS_ROLE: "reviewer" }, ["--no-extensions"]);
    try {
      for (const pi of [alice, reviewer]) {
        await pi.request({ type: "get_state" });
        expect(await pi.request({ type: "prompt", message: "who am I?" })).toMatchObject({ success: true });
      }
      await alice.waitFor((r) => r.type === "agent_settled");
      await reviewer.waitFor((r) => r.type === "agent_settled");

      const fresh = model.calls.slice(before);
      expect(fresh.map((c) => c.agent).sort()).toEqual(["alice", "reviewer"]);
      expect(model.callsOf("alice")).toHaveLength(1);
      expect(model.callsOf("alice")[0]).toMatchObject({ role: "worker", lastUser: "who am I?" });
      expect(model.callsOf("alice")[0]?.headers[IDENTITY_HEADER]).toBe("worker/alice");
      expect(model.callsOf("reviewer")[0]).toMatchObject({ role: "reviewer" });
      expect(JSON.stringify(alice.records)).toContain("hello alice");

      await closeAndExpectExit(alice);
      await closeAndExpectExit(reviewer);
    } finally {
      alice.proc.kill("SIGKILL");
      reviewer.proc.kill("SIGKILL");
    }
  });
});
