import { isAlive } from "../../support/process.ts";
import { getEventListeners } from "node:events";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  ChildExitedError,
  RpcCommandError,
  spawnPiChild,
  type PiChild,
  type RpcEvent,
  type SpawnPiChildOptions,
} from "../../../src/process/index.ts";

const FIXTURES = fileURLToPath(new URL("../../fixtures/", import.meta.url));
const TRICKY = "héllo 🌍\u2028日本語\u2029ok"; // same text as tests/fixtures/split-utf8.mjs

let dir: string;
const spawned: PiChild[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "prt-spawner-"));
});

afterEach(async () => {
  await Promise.all(spawned.splice(0).map((c) => c.stop({ graceMs: 50, termGraceMs: 50, abortFirst: false })));
  rmSync(dir, { recursive: true, force: true });
});

async function spawnFixture(name: string, extra: Partial<SpawnPiChildOptions> = {}): Promise<PiChild> {
  const child = await spawnPiChild({
    piCli: join(FIXTURES, name),
    args: [],
    cwd: dir,
    stderrLog: join(dir, "logs", "child.stderr.log"),
    label: `fixture ${name}`,
    ...extra,
  });
  spawned.push(child);
  return child;
}

const isGone = (pid: number): boolean => !isAlive(pid);

describe("spawnPiChild with a well-behaved child", () => {
  it("is ready on get_state, passes args/cwd/env, stops gracefully and leaves no process", async () => {
    const owner = new AbortController();
    const pc = await spawnFixture("fake-pi.mjs", { args: ["--mode", "rpc"], env: { FAKE_PI_ENV: "from-test" }, signal: owner.signal });
    expect(getEventListeners(owner.signal, "abort")).toHaveLength(1);
    await expect(pc.waitReady(10_000)).resolves.toMatchObject({ sessionId: "fake-session", isStreaming: false });
    await expect(pc.child.send({ type: "get_session_stats" })).resolves.toEqual({ argv: ["--mode", "rpc"], cwd: dir, env: "from-test" });
    await expect(pc.child.send({ type: "get_commands" })).rejects.toBeInstanceOf(RpcCommandError); // unknown to the fake
    expect(pc.running).toBe(true);
    expect(pc.terminationReason).toBeUndefined();

    const stopping = pc.stop();
    expect(pc.stop()).toBe(stopping);
    const exit = await stopping;
    expect(exit).toEqual({ code: 0, signal: null, reason: "stopped" });
    expect(pc.terminationReason).toBe("stopped");
    expect(pc.lifetime.aborted).toBe(true);
    expect(isGone(pc.pid)).toBe(true);
    expect(getEventListeners(owner.signal, "abort")).toHaveLength(0); // nothing left listening
    await expect(pc.stop()).resolves.toBe(exit);
    await expect(pc.child.getState()).rejects.toBeInstanceOf(ChildExitedError);
  });

  it("correlates out-of-order answers over real pipes and surfaces Pi's error text", async () => {
    const pc = await spawnFixture("fake-pi.mjs", { args: ["--delay-get-state"] });
    const state = pc.child.getState();
    const text = pc.child.getLastAssistantText();
    await expect(text).resolves.toBe("echo");
    await expect(state).resolves.toMatchObject({ sessionId: "fake-session" });
    await expect(pc.child.send({ type: "set_model", provider: "nope", modelId: "m" })).rejects.toThrow(
      /set_model \(id r\d+\): Model not found: nope\/m/,
    );
  });

  it("classifies an exit it did not ask for with code 0 as `exited`", async () => {
    const pc = await spawnFixture("fake-pi.mjs");
    await pc.waitReady(10_000);
    pc.child.endInput("the test closes stdin");
    await expect(pc.exited).resolves.toEqual({ code: 0, signal: null, reason: "exited" });
  });

  it("stops with reason `aborted` when the spawn signal fires", async () => {
    const controller = new AbortController();
    const pc = await spawnFixture("fake-pi.mjs", { signal: controller.signal });
    await pc.waitReady(10_000);
    controller.abort();
    await expect(pc.exited).resolves.toMatchObject({ reason: "aborted", code: 0 });
  });
});

describe("spawnPiChild with hostile children", () => {
  it("hang: waitReady times out with a clear message; stop escalates to SIGTERM (reason stopped)", async () => {
    const pc = await spawnFixture("hang.mjs");
    await expect(pc.waitReady(100)).rejects.toMatchObject({ code: "timeout", message: expect.stringMatching(/not ready within 100 ms/) });
    const exit = await pc.stop({ graceMs: 100, termGraceMs: 10_000 });
    expect(exit).toEqual({ code: null, signal: "SIGTERM", reason: "stopped" });
    expect(isGone(pc.pid)).toBe(true);
  });

  it("exit 1: pending requests reject at once with child_exited, exit code and stderr text", async () => {
    const pc = await spawnFixture("exit-stderr.mjs");
    const error = await pc.child.getState().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ChildExitedError);
    expect(error).toMatchObject({ code: "child_exited", exit: { code: 1, signal: null, reason: "crashed" } });
    expect((error as Error).message).toMatch(/code 1, crashed[\s\S]*get_state#r1[\s\S]*fatal: model registry is corrupt/);
    expect(await pc.exited).toEqual({ code: 1, signal: null, reason: "crashed" });
  });

  it("killed from outside: reported as crashed with the signal", async () => {
    const pc = await spawnFixture("hang.mjs");
    const pending = pc.child.getState();
    process.kill(pc.pid, "SIGKILL");
    await expect(pending).rejects.toMatchObject({ code: "child_exited", exit: { signal: "SIGKILL", reason: "crashed" } });
  });

  it("non-JSON and malformed output is counted per reason, never thrown, and valid records still flow", async () => {
    const pc = await spawnFixture("non-json.mjs");
    const settled = pc.child.nextEvent("agent_settled");
    await expect(pc.waitReady(10_000)).resolves.toMatchObject({ sessionId: "fake-session" });
    await expect(settled).resolves.toEqual({ type: "agent_settled", aborted: false });
    expect(pc.child.stats.violationsByReason).toEqual({
      non_json: 1,
      not_object: 1,
      missing_type: 1,
      bad_shape: 1,
      unmatched_response: 1,
      uncorrelated_error: 1,
    });
    expect(pc.child.violations[0]?.line).toBe("Debugger listening on ws://127.0.0.1:9229");
  });

  it("ignores SIGTERM: stop escalates to SIGKILL (reason killed)", async () => {
    const pc = await spawnFixture("ignore-sigterm.mjs");
    await pc.waitReady(10_000);
    const exit = await pc.stop({ graceMs: 100, termGraceMs: 300 });
    expect(exit).toEqual({ code: null, signal: "SIGKILL", reason: "killed" });
    expect(pc.stderrTail()).toContain("SIGTERM ignored");
    expect(isGone(pc.pid)).toBe(true);
  });

  it("UTF-8 split across writes, U+2028/U+2029 and CRLF arrive intact", async () => {
    const pc = await spawnFixture("split-utf8.mjs");
    const queue = new Promise<RpcEvent>((resolve) => pc.child.onEvent(resolve));
    const state = await pc.waitReady(10_000);
    expect(state.sessionName).toBe(TRICKY);
    expect(await queue).toEqual({ type: "queue_update", steering: [TRICKY], followUp: [] });
    expect(pc.child.stats.protocolViolations).toBe(0);
  });

  it("extension_ui_request confirm is answered cancelled at once; notify/setStatus are recorded only", async () => {
    const pc = await spawnFixture("ui-confirm.mjs");
    const echoed = pc.child.nextEvent("other", { predicate: (e) => e.eventType === "fixture_ui_response" });
    await expect(pc.child.prompt("/ask", { streamingBehavior: "followUp" })).resolves.toEqual({ disposition: "handled" });
    const event = await echoed;
    expect(event.record["response"]).toEqual({ type: "extension_ui_response", id: "ui-3", cancelled: true });
    expect(pc.child.uiRequests.map((r) => [r.request.method, r.answer])).toEqual([
      ["notify", "none"],
      ["setStatus", "none"],
      ["confirm", "cancelled"],
    ]);
  });
});

describe("stderr log", () => {
  it("creates the dir 0700 and the file 0600, and each child's tail holds only its own output", async () => {
    const first = await spawnFixture("exit-stderr.mjs");
    await first.child.getState().catch(() => undefined);
    const second = await spawnFixture("fake-pi.mjs");
    await second.waitReady(10_000);
    expect(statSync(join(dir, "logs")).mode & 0o777).toBe(0o700);
    expect(statSync(first.stderrLogPath).mode & 0o777).toBe(0o600);
    const log = readFileSync(first.stderrLogPath, "utf8");
    expect(log).toMatch(/=== .* spawn fixture exit-stderr\.mjs: .*exit-stderr\.mjs ===/);
    expect(log).toContain("fatal: model registry is corrupt");
    expect(first.stderrTail()).toContain("fatal: model registry is corrupt");
    expect(second.stderrTail()).toBe("");
  });

  it("a process that cannot start rejects with spawn_failed", async () => {
    const error = await spawnFixture("fake-pi.mjs", { cwd: join(dir, "missing") }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ChildExitedError);
    expect(error).toMatchObject({ code: "child_exited", exit: { reason: "spawn_failed" } });
  });
});
