/**
 * RpcChild + spawnPiChild against the REAL pi CLI (pinned @earendil-works/pi-coding-agent).
 * Isolated PI_CODING_AGENT_DIR per test, offline, no session. No model is needed for the
 * transport tests; the streamingBehavior tests load tests/fixtures/pi-faux-provider.ts.
 */
import { isAlive } from "../support/process.ts";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  RpcCommandError,
  resolvePiCli,
  spawnPiChild,
  type PiChild,
  type RpcCommand,
  type RpcEvent,
  type UiRequestRecord,
} from "../../src/process/index.ts";

const PI_CLI = resolvePiCli();
const FAUX_EXTENSION = fileURLToPath(new URL("../fixtures/pi-faux-provider.ts", import.meta.url));
const BASE_ARGS = ["--mode", "rpc", "--no-session", "--no-extensions", "--offline"];
const FAUX_ARGS = [...BASE_ARGS, "-e", FAUX_EXTENSION, "--provider", "fixture-faux", "--model", "faux-1"];
const READY_MS = 30_000;

let dir: string;
const spawned: PiChild[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "prt-e2e-rpc-"));
});

afterEach(async () => {
  await Promise.all(spawned.splice(0).map((c) => c.stop()));
  rmSync(dir, { recursive: true, force: true });
});

async function spawnPi(args: readonly string[]): Promise<PiChild> {
  const child = await spawnPiChild({
    piCli: PI_CLI,
    args,
    cwd: dir,
    env: { PI_CODING_AGENT_DIR: join(dir, "agent"), PI_OFFLINE: "1", PI_SKIP_VERSION_CHECK: "1", PI_TELEMETRY: "0" },
    stderrLog: join(dir, "logs", "pi.stderr.log"),
    label: "e2e pi",
  });
  spawned.push(child);
  return child;
}

const isGone = (pid: number): boolean => !isAlive(pid);

describe("real pi --mode rpc: transport", () => {
  it("answers get_state (spawn→ready timed), rejects failing commands with Pi's text, stops leaving no process", async () => {
    const startedAt = performance.now();
    const pi = await spawnPi(BASE_ARGS);
    const state = await pi.waitReady(READY_MS);
    const readyMs = performance.now() - startedAt;
    console.log(`[e2e rpc-client] spawn→ready ${readyMs.toFixed(0)} ms`);
    expect(state).toMatchObject({ isStreaming: false, isCompacting: false, messageCount: 0, pendingMessageCount: 0 });
    expect(state.sessionId).toMatch(/\S/);

    const setModel = await pi.child.send({ type: "set_model", provider: "no-such-provider", modelId: "no-such-model" }).catch((e: unknown) => e);
    expect(setModel).toBeInstanceOf(RpcCommandError);
    expect(setModel).toMatchObject({ code: "invalid_input", piError: "Model not found: no-such-provider/no-such-model" });
    expect((setModel as Error).message).toContain("set_model");

    const unknown = await pi.child.send({ type: "no_such_command" } as unknown as RpcCommand).catch((e: unknown) => e);
    expect(unknown).toMatchObject({ code: "invalid_input", piError: "Unknown command: no_such_command" });

    // No model configured: a prompt is rejected by Pi before acceptance, with its reason.
    await expect(pi.child.prompt("hi", { streamingBehavior: "followUp" })).rejects.toMatchObject({
      code: "invalid_input",
      piError: expect.stringMatching(/No API key found|No model selected/),
    });
    expect(pi.child.stats.protocolViolations).toBe(0);

    const stopStarted = performance.now();
    const exit = await pi.stop();
    console.log(`[e2e rpc-client] stop ${(performance.now() - stopStarted).toFixed(0)} ms`);
    expect(exit).toEqual({ code: 0, signal: null, reason: "stopped" });
    expect(isGone(pi.pid)).toBe(true);
    await expect(pi.child.getState()).rejects.toMatchObject({ code: "child_exited" });
  });

  it("spawn→ready over three runs (reported, generous bound)", async () => {
    const times: number[] = [];
    for (let run = 0; run < 3; run++) {
      const startedAt = performance.now();
      const pi = await spawnPi(BASE_ARGS);
      await pi.waitReady(READY_MS);
      times.push(performance.now() - startedAt);
      await pi.stop();
      expect(isGone(pi.pid)).toBe(true);
    }
    console.log(`[e2e rpc-client] spawn→ready runs: ${times.map((t) => t.toFixed(0)).join(", ")} ms`);
    expect(Math.min(...times)).toBeLessThan(READY_MS);
  });
});

describe("real pi with a scripted model: streamingBehavior (L3, W1)", () => {
  it("on an idle child, streamingBehavior is ignored: followUp and steer both start a run", async () => {
    const pi = await spawnPi(FAUX_ARGS);
    await pi.waitReady(READY_MS);
    for (const streamingBehavior of ["followUp", "steer"] as const) {
      const events: string[] = [];
      const off = pi.child.onEvent((e) => events.push(e.type));
      const settled = pi.child.nextEvent("agent_settled");
      await expect(pi.child.prompt(`hello ${streamingBehavior}`, { streamingBehavior })).resolves.toEqual({ disposition: "started" });
      await expect(settled).resolves.toEqual({ type: "agent_settled", aborted: false });
      off();
      expect(events[0]).toBe("agent_start");
      expect(events).toContain("agent_end");
      await expect(pi.child.getLastAssistantText()).resolves.toBe(`echo: hello ${streamingBehavior}`);
    }
  });

  it("on a streaming child, followUp is queued and consumed before agent_settled", async () => {
    const pi = await spawnPi(FAUX_ARGS);
    await pi.waitReady(READY_MS);
    const events: RpcEvent[] = [];
    pi.child.onEvent((e) => events.push(e));
    const started = pi.child.nextEvent("agent_start");
    const settled = pi.child.nextEvent("agent_settled");
    await expect(pi.child.prompt("SLOW800 first", { streamingBehavior: "followUp" })).resolves.toEqual({ disposition: "started" });
    await started;
    await expect(pi.child.prompt("second", { streamingBehavior: "followUp" })).resolves.toEqual({ disposition: "queued" });
    await settled;
    await expect(pi.child.getLastAssistantText()).resolves.toBe("echo: second");
    expect(events.filter((e) => e.type === "agent_settled")).toHaveLength(1);
    expect(pi.child.stats.protocolViolations).toBe(0);
  });
});

describe("real pi: extension dialogs (W4)", () => {
  it("a child's confirm dialog is answered cancelled at once, so the child does not block", async () => {
    const pi = await spawnPi(FAUX_ARGS);
    await pi.waitReady(READY_MS);
    const notified = new Promise<UiRequestRecord>((resolve) =>
      pi.child.onUiRequest((record) => {
        if (record.request.method === "notify") resolve(record);
      }),
    );
    await expect(pi.child.prompt("/fixture-ask", { streamingBehavior: "followUp" })).resolves.toEqual({ disposition: "handled" });
    const notify = await notified;
    expect(notify.request).toMatchObject({ method: "notify", message: "confirmed=false" });
    expect(pi.child.uiRequests.map((r) => [r.request.method, r.answer])).toEqual([
      ["confirm", "cancelled"],
      ["notify", "none"],
    ]);
  });
});
