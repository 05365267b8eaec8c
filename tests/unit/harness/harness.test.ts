/**
 * A real `LeaderHarness` on its ports: a fake Spawner (children over in-memory pipes, the test
 * plays Pi), a fake clock, and temp dirs (real git where a worktree is asked for). What the e2e
 * suite checks with a real pi in minutes, for the shell's own rules: queue order, mail during a
 * steer, a stop while starting, every spawn rollback, a failed exit capture.
 */
import { execFile } from "node:child_process";
import { mkdir, readdir, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { TeamError } from "../../../src/errors.ts";
import { LeaderHarness } from "../../../src/harness/harness.ts";
import type { LeaderDelivery, MailDelivery } from "../../../src/team/leader-delivery.ts";
import { TEAMMATE_FILES, type Clock, type TeammateFiles } from "../../../src/harness/harness-ports.ts";
import type { LaunchPreflight } from "../../../src/launch/index.ts";
import { runtimeLayout } from "../../../src/store/index.ts";
import { fakeSpawner, type FakePi, type FakeSpawnerOptions } from "../../support/fake-pi-child.ts";
import { agentFile, PACKAGE_DIR } from "../../support/leader.ts";
import { useGitFixture } from "../isolation/git-fixture.ts";
import { useTempDirs } from "../store/tmp.ts";

const run = promisify(execFile);
const tmp = useTempDirs();
const gitFixture = useGitFixture();
const closing: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closing.splice(0)) await close();
});

/** A clock the test moves; timers fire only through `advance`. */
function fakeClock(start = 1_000_000): Clock & { advance(ms: number): void } {
  let t = start;
  const timers = new Set<{ at: number; fn: () => void }>();
  return {
    now: () => t,
    setTimer: (fn, ms) => {
      const timer = { at: t + ms, fn };
      timers.add(timer);
      return () => timers.delete(timer);
    },
    advance: (ms) => {
      t += ms;
      for (const timer of [...timers].filter((x) => x.at <= t)) {
        timers.delete(timer);
        timer.fn();
      }
    },
  };
}

interface WorldOptions {
  files?: Partial<TeammateFiles>;
  spawn?: FakeSpawnerOptions;
  readyTimeoutMs?: number;
  heartbeat?: { stallMs: number; silentMs: number };
  /** The project is a git repository (for worktree roles). */
  git?: boolean;
}

async function world(o: WorldOptions = {}) {
  const root = await tmp();
  const agentDir = join(root, "agent");
  let cwd = join(root, "project");
  let git = async (..._args: string[]): Promise<string> => "";
  if (o.git) {
    const fx = await gitFixture();
    cwd = await fx.repo();
    git = (...args) => fx.git(cwd, ...args);
  } else {
    await mkdir(cwd, { recursive: true });
  }
  await mkdir(join(cwd, ".pi", "agents"), { recursive: true });
  await writeFile(join(cwd, ".pi", "agents", "worker.md"), agentFile("worker", "You are a test teammate."));
  await writeFile(join(cwd, ".pi", "agents", "builder.md"), agentFile("builder", "You build in your own worktree.", { worktree: "true" }));
  const worktreesRoot = join(root, "worktrees");
  const clock = fakeClock();
  const fake = fakeSpawner(o.spawn);
  const deliveries: LeaderDelivery[] = [];
  const mail: MailDelivery[] = [];
  const notes: string[] = [];
  const rpc = { events: 0 };
  const harness = new LeaderHarness({
    cwd,
    layout: runtimeLayout(agentDir, "unit"),
    boardDir: join(agentDir, "board"),
    agentDir,
    piCli: join(root, "no-pi.js"),
    packageDir: PACKAGE_DIR,
    env: {},
    trusted: () => true,
    leaderModel: () => undefined,
    worktreesRoot,
    clock,
    spawner: fake.spawner,
    files: {
      ...TEAMMATE_FILES,
      ensureWorkerBundle: () => Promise.resolve(undefined),
      reapMarked: () => Promise.resolve({ supported: true, killed: [], failed: [], complete: true }),
      ...o.files,
    },
    readyTimeoutMs: o.readyTimeoutMs ?? 5000,
    ...(o.heartbeat ? { heartbeat: o.heartbeat } : {}),
    stopGraceMs: 50,
  });
  harness.on("delivery", ({ delivery }) => deliveries.push(delivery));
  harness.on("mail_delivered", ({ delivery }) => mail.push(delivery));
  harness.on("note", ({ note }) => notes.push(note.text));
  harness.on("output", () => (rpc.events += 1));
  await harness.start();
  closing.push(() => harness.close());
  /** Resolves once `done()` holds after a harness step (checked at once too). */
  const when = (done: () => boolean, what: string): Promise<void> =>
    new Promise((resolve, reject) => {
      if (done()) return resolve();
      const timer = setTimeout(() => {
        stop();
        reject(new Error(`timed out waiting for ${what}`));
      }, 2000);
      const stop = harness.subscribe(() => {
        if (!done()) return;
        clearTimeout(timer);
        stop();
        resolve();
      });
    });
  return { root, cwd, git, worktreesRoot, clock, fake, harness, deliveries, mail, notes, rpc, when };
}

type World = Awaited<ReturnType<typeof world>>;

/** A spawn without kickoff that the test brings to `idle` (the fake answers `get_state` by itself). */
async function idleTeammate(w: World, name: string, agent = "worker") {
  await w.harness.spawn({ name, agent });
  const m = w.harness.living(name)!;
  expect(m.status).toBe("idle");
  return { m, pi: w.fake.children.at(-1)! };
}

/** A teammate with a kickoff, its run under way (`working`). */
async function workingTeammate(w: World, name: string) {
  const next = w.fake.spawned();
  const spawning = w.harness.spawn({ name, agent: "worker", prompt: "Do the long task." });
  const pi = await next;
  await pi.answer("prompt", { disposition: "started" });
  pi.emit({ type: "agent_start" });
  await spawning;
  const m = w.harness.living(name)!;
  await w.when(() => m.status === "working", `${name} working`);
  return { m, pi };
}

async function entries(dir: string): Promise<string[]> {
  return readdir(dir).catch(() => []);
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(() => true, () => false);
}

/**
 * What a failed spawn must leave: the member stopped and closed, no child running, no worktree
 * dir and no branch of it, and the name free for a new spawn.
 */
async function expectNothingLeft(w: World, name: string): Promise<void> {
  const m = w.harness.members().find((x) => x.name === name);
  if (m) {
    await m.closed;
    expect(m.status).toBe("stopped");
  }
  expect(w.harness.living(name)).toBeUndefined();
  expect(w.fake.children.filter((pi) => pi.proc.running)).toEqual([]);
  expect(await entries(w.worktreesRoot)).toEqual([]);
  expect((await w.git("branch", "--list", "--format=%(refname:short)")).split("\n").filter((b) => b.includes(name))).toEqual([]);
  // The name is free: a plain teammate of that name starts.
  await w.harness.spawn({ name, agent: "worker" });
  expect(w.harness.living(name)?.status).toBe("idle");
}

const prompts = (pi: FakePi) => pi.wire.written.filter((c) => c.type === "prompt");

describe("LeaderHarness on fake ports: the event queue", () => {
  it("applies the events of one teammate in arrival order: a settle draining its outbox is not overtaken by the next run's start", async () => {
    const w = await world();
    const { m, pi } = await idleTeammate(w, "ada");
    pi.emit({ type: "agent_start" });
    pi.emit({ type: "agent_settled", aborted: false });
    pi.emit({ type: "agent_start" }); // a sync step queued behind the async outbox read of the settle
    await w.when(() => w.rpc.events === 3, "the events to be read");
    await w.harness.settled(m);
    expect(m.status).toBe("working");
  });

  it("mail arriving while a steer is in flight goes out after that steer is answered, in order, nothing lost", async () => {
    const w = await world();
    const { m, pi } = await workingTeammate(w, "ada");
    w.harness.tell({ name: "ada", spawnId: m.spawnId }, "first");
    const steer = await pi.next("prompt");
    expect(steer).toMatchObject({ streamingBehavior: "steer" });
    expect(String(steer.message)).toContain("first");

    w.harness.tell({ name: "ada", spawnId: m.spawnId }, "second");
    await w.harness.settled(m);
    expect(prompts(pi)).toHaveLength(2); // the kickoff and the first steer: one send at a time
    expect(m.pendingMail.map((r) => r.body)).toEqual(["second"]);

    pi.respond(steer, { disposition: "queued" });
    const second = await pi.next("prompt");
    expect(String(second.message)).toContain("second");
    pi.respond(second, { disposition: "queued" });
    await w.when(() => w.mail.length === 2, "both deliveries");
    expect(w.mail.map((d) => [d.via, d.records.map((r) => r.body)])).toEqual([["steer", ["first"]], ["steer", ["second"]]]);
    expect(m.pendingMail).toEqual([]);
    expect(m.status).toBe("working");
  });
});

describe("LeaderHarness on fake ports: its signals", () => {
  it("tells each signal in order; a throwing listener is noted and changes nothing else", async () => {
    const w = await world();
    const seen: string[] = [];
    w.harness.on("idle", ({ member }) => seen.push(`idle ${member.name}`));
    w.harness.on("idle", () => {
      throw new Error("boom");
    });
    w.harness.on("gone", ({ member, reason }) => seen.push(`gone ${member.name} ${reason} ${member.proc?.running ? "running" : "ended"}`));
    w.harness.on("lifeline", ({ text }) => seen.push(text));
    w.harness.on("spawn_ended", () => seen.push("spawn ended"));
    const { m } = await idleTeammate(w, "ada");
    expect(w.notes).toContain("idle listener failed: boom");
    await w.harness.shutdown("ada");
    // The board hears `gone` before the child is signalled (R21).
    expect(seen).toEqual(["idle ada", "spawn ended", "gone ada shutdown running", "Teammate @ada shut down."]);
    expect(m.status).toBe("stopped");
  });
});

describe("LeaderHarness on fake ports: the clock", () => {
  it("the heartbeat timer runs on the clock port: a silent working teammate is reported once its silence passes the threshold", async () => {
    const w = await world({ heartbeat: { stallMs: 60_000, silentMs: 10_000 } });
    await workingTeammate(w, "ada");
    w.clock.advance(9_000);
    await new Promise((resolve) => setImmediate(resolve));
    expect(w.deliveries).toEqual([]);
    w.clock.advance(2_000);
    await w.when(() => w.deliveries.length > 0, "the stall notice");
    expect(w.deliveries).toMatchObject([{ kind: "harness_event", type: "teammate_stalled", teammate: "ada" }]);
  });
});

describe("LeaderHarness on fake ports: a stop while starting", () => {
  it("a shutdown while the child is being started stops it: nothing is left and the spawn is refused (illegal_transition)", async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let entered!: () => void;
    const spawning = new Promise<void>((resolve) => (entered = resolve));
    const w = await world({ spawn: { before: () => (entered(), held) } });
    const spawned = w.harness.spawn({ name: "ada", agent: "worker" });
    await spawning;
    const stopped = w.harness.shutdown("ada");
    release();
    await expect(spawned).rejects.toMatchObject({ code: "illegal_transition" });
    await expect(stopped).resolves.toEqual({ name: "ada", exit: "never started" });
    await expectNothingLeft(w, "ada");
  });

  it("a shutdown before the child answered get_state: the spawn rejects and nothing is left", async () => {
    const w = await world({ spawn: { holdReady: true } });
    const next = w.fake.spawned();
    const spawned = w.harness.spawn({ name: "ada", agent: "worker" });
    await next;
    await expect(w.harness.shutdown("ada")).resolves.toMatchObject({ name: "ada" });
    await expect(spawned).rejects.toBeInstanceOf(TeamError);
    expect(w.deliveries).toEqual([]); // a requested stop: no crash event
    await expectNothingLeftHeld(w, "ada");
  });
});

describe("LeaderHarness on fake ports: each spawn rollback leaves nothing", () => {
  it("the launcher's pre-flight fails", async () => {
    let calls = 0; // the first pre-flight fails; the respawn of expectNothingLeft passes
    const preflightLaunch: TeammateFiles["preflightLaunch"] = (input) =>
      (calls += 1) === 1 ? Promise.reject(new TeamError("invalid_input", "no such launcher")) : TEAMMATE_FILES.preflightLaunch(input);
    const w = await world({ git: true, files: { preflightLaunch } });
    await expect(w.harness.spawn({ name: "bo", agent: "builder" })).rejects.toThrow(/teammate_spawn: agent "builder".*no such launcher/);
    expect(w.fake.children).toEqual([]);
    await expectNothingLeft(w, "bo");
  });

  it("the worktree cannot be made (no git repository): the launch dir of its pre-flight is removed", async () => {
    const box = join(await tmp(), "box");
    await mkdir(box);
    const preflight: LaunchPreflight = { launcher: { kind: "local" }, settings: {}, settingsPath: undefined, sandbox: { dir: box, tmp: join(box, "tmp"), agentDir: join(box, "agent"), realAgentDir: box, agentEntries: [], readOnly: [] } as never };
    const w = await world({ files: { preflightLaunch: () => Promise.resolve(preflight) } });
    await expect(w.harness.spawn({ name: "bo", agent: "builder" })).rejects.toBeInstanceOf(TeamError);
    expect(await exists(box)).toBe(false);
    expect(w.fake.children).toEqual([]);
    await expectNothingLeft(w, "bo");
  });

  it("the inline role's file cannot be written: the new worktree and its branch are removed", async () => {
    const w = await world({ git: true, files: { persistDefinition: () => Promise.reject(new TeamError("io_error", "disk full")) } });
    const definition = { description: "x", prompt: "You build.", worktree: true, persist: "project" };
    await expect(w.harness.spawn({ name: "bo", agent: "maker", definition })).rejects.toThrow(/disk full/);
    expect(w.fake.children).toEqual([]);
    await expectNothingLeft(w, "bo");
  });

  it("the child cannot be started: the worktree and its branch are removed", async () => {
    const w = await world({ git: true, spawn: { before: () => Promise.reject(new TeamError("child_exited", "cannot start pi")) } });
    await expect(w.harness.spawn({ name: "bo", agent: "builder" })).rejects.toThrow(/cannot start pi/);
    await expectNothingLeft(w, "bo").catch((error: unknown) => {
      // The last step of expectNothingLeft respawns, which this world's spawner refuses.
      if (!(error instanceof TeamError && /cannot start pi/.test(error.message))) throw error;
    });
    expect(await entries(w.worktreesRoot)).toEqual([]);
  });

  it("the child is not ready in time: it is stopped, its worktree and branch are gone", async () => {
    const w = await world({ git: true, spawn: { holdReady: true }, readyTimeoutMs: 30 });
    await expect(w.harness.spawn({ name: "bo", agent: "builder" })).rejects.toMatchObject({ code: "timeout" });
    expect(w.deliveries).toEqual([]);
    await expectNothingLeftHeld(w, "bo");
  });

  it("the child exits before it is ready: nothing is left", async () => {
    const w = await world({ git: true, spawn: { holdReady: true } });
    const next = w.fake.spawned();
    const spawned = w.harness.spawn({ name: "bo", agent: "builder" });
    (await next).exit(1);
    await expect(spawned).rejects.toMatchObject({ code: "child_exited" });
    await expectNothingLeftHeld(w, "bo");
  });
});

/** `expectNothingLeft` in a world whose children hold `get_state`: the respawn is answered by hand. */
async function expectNothingLeftHeld(w: World, name: string): Promise<void> {
  const next = w.fake.spawned();
  const left = expectNothingLeft(w, name);
  await (await next).ready();
  await left;
}

describe("LeaderHarness on fake ports: the exit capture", () => {
  it("a capture that throws leaves the worktree in place and says so; the member still ends stopped and closed", async () => {
    const w = await world({ git: true, files: { captureWorktree: () => Promise.reject(new Error("disk on fire")) } });
    const { m, pi } = await idleTeammate(w, "bo", "builder");
    const dir = m.worktree!.dir;
    pi.exit(1); // a crash
    await m.closed;
    expect(m.status).toBe("stopped");
    expect(await exists(dir)).toBe(true);
    expect(m.handoffFacts().leftAt).toBe(dir);
    const events = w.deliveries.map((d) => (d.kind === "harness_event" ? d.type : d.kind));
    expect(events).toEqual(["teammate_crashed", "worktree_capture_failed"]);
    expect(w.deliveries[1]?.text).toMatch(/disk on fire/);
    await run("git", ["worktree", "remove", "--force", dir], { cwd: w.cwd }); // the test's own cleanup
  });
});
