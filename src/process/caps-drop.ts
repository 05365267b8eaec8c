/**
 * A local pi child (a teammate or a reviewer) never gets CAP_SYS_ADMIN (issue 18, "Terminal").
 * With it, TIOCSTI pushes keystrokes into any terminal, not only the caller's own (Linux
 * drivers/tty/tty_io.c `tiocsti`), so a root teammate could type into the leader's editor
 * through `/proc/<leader pid>/fd/0` even from its own session (spawner.ts starts every child
 * with `setsid`). Where the leader runs as root, the child is started through util-linux
 * `setpriv`, which drops the capability from the bounding and inheritable sets before it execs
 * pi: a root process gets its permitted set from those two, so neither pi nor anything it starts
 * can have it again. The rule is `capsDrop` and `withoutSysAdmin` (pure); `readHostCaps` is the I/O.
 */
import { readFile } from "node:fs/promises";
import which from "which";
import type { SpawnCommand } from "./spawner-types.ts";

/** Capability numbers (linux/capability.h). */
const CAP_SETPCAP = 8;
export const CAP_SYS_ADMIN = 21;

/** What the leader's process may pass on, as `readHostCaps` found it. */
export interface HostCaps {
  /** The leader runs as root (uid 0). */
  root: boolean;
  /**
   * Its bounding, inheritable or ambient set holds CAP_SYS_ADMIN (a root child's permitted set
   * comes from those); undefined where `/proc` is missing.
   */
  sysAdmin: boolean | undefined;
  /** Its effective set holds CAP_SETPCAP, which dropping from the bounding set needs; undefined where `/proc` is missing. */
  setpcap: boolean | undefined;
  /** Absolute path of `setpriv` on the leader's PATH; undefined where it is missing. */
  setpriv: string | undefined;
}

/** How to start a local child without CAP_SYS_ADMIN. */
export interface CapsDrop {
  /** The argv to put in front of the child's command: `[]` when there is nothing to drop, or no way to. */
  prefix: readonly string[];
  /** Why the children keep CAP_SYS_ADMIN, for one harness note per session; undefined when they do not. */
  note?: string;
}

/**
 * The `setpriv` prefix for a root leader that holds CAP_SYS_ADMIN; nothing for a non-root
 * leader or one that lacks the capability (a container without it: `setpriv` would fail there
 * without CAP_SETPCAP, and there is nothing to drop). Without `setpriv` (macOS, a minimal
 * image) or CAP_SETPCAP, no prefix and a note saying what remains. Pure.
 */
export function capsDrop(host: HostCaps): CapsDrop {
  if (!host.root || host.sysAdmin === false) return { prefix: [] };
  const remains =
    "so teammates and reviewers keep CAP_SYS_ADMIN, and a teammate's code can type into this terminal through /proc/<leader pid>/fd/0 (TIOCSTI). " +
    "Run pi as a normal user, or install util-linux (setpriv) to close this.";
  if (!host.setpriv) return { prefix: [], note: `pi runs as root and util-linux setpriv is not on PATH, ${remains}` };
  if (host.setpcap === false) return { prefix: [], note: `pi runs as root without CAP_SETPCAP, which setpriv needs to drop a capability, ${remains}` };
  return { prefix: [host.setpriv, "--bounding-set", DROPPED, "--inh-caps", DROPPED, "--"] };
}

/**
 * The capabilities a root child loses: CAP_SYS_ADMIN (TIOCSTI into a terminal not its own), and
 * the ones that reach into the leader by other ways: CAP_SYS_PTRACE (attach to the leader and run
 * the ioctl from inside it), CAP_SYS_MODULE (load a kernel module) and CAP_SYS_RAWIO.
 */
const DROPPED = "-sys_admin,-sys_ptrace,-sys_module,-sys_rawio";

/** `command` started through `capsDrop(host).prefix`; `command` itself when there is none. Pure. */
export function withoutSysAdmin(command: SpawnCommand, host: HostCaps): SpawnCommand {
  const [wrapper, ...args] = capsDrop(host).prefix;
  return wrapper ? { file: wrapper, args: [...args, command.file, ...command.args], extendEnv: command.extendEnv } : command;
}

/**
 * The capability mask `field` (`CapEff`, `CapBnd`, ...) of a `/proc/<pid>/status` text, or
 * undefined when the line is missing. Pure.
 */
export function capMask(status: string, field: string): bigint | undefined {
  const hex = new RegExp(`^${field}:\\s*([0-9a-f]+)$`, "m").exec(status)?.[1];
  return hex === undefined ? undefined : BigInt(`0x${hex}`);
}

/** Whether capability `cap` is set in `mask`; undefined for an unknown mask. Pure. */
export function hasCap(mask: bigint | undefined, cap: number): boolean | undefined {
  return mask === undefined ? undefined : (mask & (1n << BigInt(cap))) !== 0n;
}

/** Reads this process's uid, `/proc/self/status` and `setpriv` on PATH. Never rejects. */
export async function readHostCaps(): Promise<HostCaps> {
  const status = await readFile("/proc/self/status", "utf8").catch(() => "");
  const setpriv = await which("setpriv", { nothrow: true });
  const passed = ["CapBnd", "CapInh", "CapAmb"].map((field) => hasCap(capMask(status, field), CAP_SYS_ADMIN));
  return {
    root: process.getuid?.() === 0,
    sysAdmin: passed.includes(true) || (passed.includes(false) ? false : undefined),
    setpcap: hasCap(capMask(status, "CapEff"), CAP_SETPCAP),
    setpriv: setpriv ?? undefined,
  };
}
