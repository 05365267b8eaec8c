/**
 * The launcher benchmark's world: which launchers can run here (a skipped one says why), a role
 * file per launcher, a throwaway sshd for `ssh:127.0.0.1` (tests/support/sshd.ts) whose client
 * options go into the agent dir's settings (`piTeams.ssh.options`), and the real leader of
 * bench/leader/world.ts. `Cleanups` stops them again: the leader (and so its teammates), then the sshd.
 */
import { spawnSync } from "node:child_process";
import { agentFile } from "../../tests/support/leader.ts";
import { HAS_SSHD, startSshd, type TestSshd } from "../../tests/support/sshd.ts";
import { toolEndOf } from "../../tests/support/team.ts";
import { shutdown, spawnIdle } from "../leader/mail.ts";
import { ROLE, ROLE_PROMPT, startWorld, type World } from "../leader/world.ts";

/** One launcher under test and the role whose frontmatter picks it. */
export interface Launcher {
  /** The role's `launcher:` value ("local" for the default). */
  name: string;
  /** Short label, usable in teammate names. */
  tag: string;
  role: string;
}

/** A launcher that was not measured, and why. */
export interface Skipped {
  name: string;
  reason: string;
}

export interface LaunchWorld {
  w: World;
  /** The launchers that started a teammate in the check spawn, local first. */
  launchers: Launcher[];
  skipped: Skipped[];
}

/**
 * What a run must undo, added as it is started: `close()` runs the undos newest first (the
 * leader, and so its teammates, before the sshd), once, however often it is called, reporting
 * a failing one on stderr and going on with the rest.
 */
export class Cleanups {
  readonly #undo: Array<() => Promise<void>> = [];
  #closed: Promise<void> | undefined;

  add(undo: () => Promise<void>): void {
    this.#undo.push(undo);
  }

  close(): Promise<void> {
    this.#closed ??= (async () => {
      for (const undo of this.#undo.reverse()) await undo().catch((e: unknown) => console.error(`bench: cleanup failed: ${String(e)}`));
    })();
    return this.#closed;
  }
}

const LOCAL: Launcher = { name: "local", tag: "local", role: ROLE };
const BWRAP: Launcher = { name: "bwrap", tag: "bwrap", role: `${ROLE}-bwrap` };
const SSH: Launcher = { name: "ssh:127.0.0.1", tag: "ssh", role: `${ROLE}-ssh` };

/** Why bwrap cannot run here, or undefined when `bwrap --ro-bind / / --unshare-pid true` succeeds. */
function bwrapProblem(): string | undefined {
  const r = spawnSync("bwrap", ["--ro-bind", "/", "/", "--unshare-pid", "true"], { encoding: "utf8" });
  if (r.error) return `bwrap does not run here (${r.error.message})`;
  if (r.status !== 0) return `\`bwrap --ro-bind / / --unshare-pid true\` failed (exit ${r.status}): ${r.stderr.trim().slice(0, 200)}`;
  return undefined;
}

/**
 * Finds the launchers that can run, starts the sshd if ssh can, and the world with one role per
 * launcher; each is added to `cleanups` as soon as it runs. A launcher whose program runs but
 * whose check spawn fails is skipped with the leader's error.
 */
export async function startLaunchWorld(cleanups: Cleanups): Promise<LaunchWorld> {
  const skipped: Skipped[] = [];
  const wanted: Launcher[] = [LOCAL];
  const bwrap = bwrapProblem();
  if (bwrap) skipped.push({ name: BWRAP.name, reason: bwrap });
  else wanted.push(BWRAP);
  let sshd: TestSshd | undefined;
  if (!HAS_SSHD) skipped.push({ name: SSH.name, reason: "/usr/sbin/sshd or ssh-keygen is missing (tests/support/sshd.ts HAS_SSHD)" });
  else {
    try {
      sshd = await startSshd();
      cleanups.add(sshd.stop);
      wanted.push(SSH);
    } catch (e) {
      skipped.push({ name: SSH.name, reason: `the throwaway sshd did not start: ${String(e).slice(0, 300)}` });
    }
  }
  const agents = Object.fromEntries(wanted.filter((l) => l !== LOCAL).map((l) => [`${l.role}.md`, agentFile(l.role, ROLE_PROMPT, { launcher: l.name })]));
  const w = await startWorld({}, { agents, ...(sshd ? { settings: { piTeams: { ssh: { options: sshd.options } } } } : {}) });
  cleanups.add(() => w.close());
  const launchers: Launcher[] = [];
  for (const l of wanted) {
    const problem = await checkSpawn(w, l);
    if (problem === undefined) launchers.push(l);
    else skipped.push({ name: l.name, reason: `the check spawn failed: ${problem}` });
  }
  return { w, launchers, skipped };
}

/**
 * Spawns one idle teammate of `l` (this is also its warm-up: disk cache, jiti's transpile
 * cache, ssh's first login) and shuts it down. Returns the `teammate_spawn` error, if any.
 */
async function checkSpawn(w: World, l: Launcher): Promise<string | undefined> {
  const name = `check-${l.tag}`;
  const from = w.leader.events.length;
  await spawnIdle(w, [name], { [name]: l.role });
  const end = w.leader.events.slice(from).map((e) => toolEndOf(e, w.leader.events)).find((t) => t?.toolName === "teammate_spawn");
  if (end === undefined) return "the leader ran no teammate_spawn";
  if (end.isError) return end.text.slice(0, 400);
  await shutdown(w, [name]);
  return undefined;
}
