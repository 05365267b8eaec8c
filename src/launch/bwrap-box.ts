/**
 * A bwrap teammate's private dir (docs/launchers.md, "bwrap"), made by the leader before the
 * launch: `<tmp>/pi-teams-boxes/<leader pid>-<name>-XXXXXX`, holding its TMPDIR and its agent
 * dir. Every box lives under one parent, which each box sees empty (a box must not read a peer
 * box's files); boxes a dead leader left behind are removed at the next box's making.
 */
import { mkdir, mkdtemp, readdir, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { TeamError } from "../errors.ts";
import { pidAlive } from "../store/pid.ts";
import type { BwrapSandbox } from "./launch-plan.ts";
import { seedTranspileCache } from "./transpile-cache.ts";

/** What a box is made from. */
export interface BoxInput {
  name: string;
  /** The user's agent dir (its entries are bound read-only into the box's). */
  realAgentDir: string;
  /** Dirs the box must not see; created (0700) if missing, so bwrap can cover them. */
  hidden: readonly string[];
  /** The leader's cwd: its `.git` and `.pi` are read-only in a shared-tree box. */
  project?: string;
  /** This package's dir, whose transpile cache entries are copied in (transpile-cache.ts). */
  packageDir?: string;
  /** Where the boxes' parent is made. Default: the system temp dir. */
  tmp?: string;
  /** The user's usual socket dirs; the default for uid `u`: /run/user/u, /tmp/tmux-u, /tmp/.X11-unix. */
  socketDirs?: readonly string[];
}

const exists = (p: string): Promise<boolean> => stat(p).then(() => true, () => false);
const inside = (dir: string, p: string): boolean => !relative(dir, p).startsWith("..") && relative(dir, p) !== "";

/** Removes the boxes of leaders that no longer run (named `<pid>-...`). Never throws. */
async function sweepDeadBoxes(parent: string): Promise<void> {
  for (const entry of await readdir(parent).catch(() => [] as string[])) {
    const pid = Number(/^(\d+)-/.exec(entry)?.[1]);
    if (pid > 0 && !pidAlive(pid)) await rm(join(parent, entry), { recursive: true, force: true }).catch(() => undefined);
  }
}

/**
 * Makes the box of teammate `input.name` (see the module doc) and lists what its launch must
 * protect and hide.
 * @throws TeamError `io_error` naming the teammate when a dir cannot be made (nothing is left).
 */
export async function prepareBox(input: BoxInput): Promise<BwrapSandbox> {
  const uid = typeof process.getuid === "function" ? process.getuid() : 0;
  const parent = join(input.tmp ?? tmpdir(), "pi-teams-boxes");
  let dir: string | undefined;
  try {
    for (const h of input.hidden) await mkdir(h, { recursive: true, mode: 0o700 });
    await mkdir(parent, { recursive: true, mode: 0o700 });
    await sweepDeadBoxes(parent);
    dir = await mkdtemp(join(parent, `${process.pid}-${input.name}-`));
    const box = { dir, tmp: join(dir, "tmp"), agentDir: join(dir, "agent"), realAgentDir: input.realAgentDir };
    await mkdir(box.tmp, { mode: 0o700 });
    await mkdir(box.agentDir, { mode: 0o700 });
    if (input.packageDir) await seedTranspileCache(join(tmpdir(), "jiti"), join(box.tmp, "jiti"), input.packageDir);
    const agentEntries = await readdir(input.realAgentDir).catch((e: NodeJS.ErrnoException) => {
      if (e.code === "ENOENT") return [];
      throw e;
    });
    const project = input.project;
    const candidates = project ? [join(project, ".git"), join(project, ".pi"), ...(inside(project, input.realAgentDir) ? [input.realAgentDir] : [])] : [];
    const protect: string[] = [];
    for (const p of candidates) if (await exists(p)) protect.push(p);
    const sockets = input.socketDirs ?? [`/run/user/${uid}`, `/tmp/tmux-${uid}`, "/tmp/.X11-unix"];
    const hide = [parent];
    for (const s of sockets) if (await exists(s)) hide.push(s);
    return { ...box, agentEntries: agentEntries.sort(), protect, hide };
  } catch (error: unknown) {
    if (dir) await rm(dir, { recursive: true, force: true }).catch(() => undefined);
    throw new TeamError("io_error", `launcher "bwrap": cannot prepare the private dir of ${input.name}: ${String(error)}`, { cause: error });
  }
}
