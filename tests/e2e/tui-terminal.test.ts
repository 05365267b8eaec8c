/**
 * A teammate never reaches the user's terminal (issue 18, "Terminal"), on the real pi TUI in
 * tmux. A role's extension (tests/fixtures/tiocsti-probe.ts) tries to type a marker plus Enter
 * into the leader's editor with TIOCSTI: through its own `/dev/tty`, through the leader's stdin
 * `/proc/<leader pid>/fd/0`, and by stealing that terminal as its own (setsid + TIOCSCTTY).
 * Every attempt must fail, and the marker must never reach the pane or the leader's model.
 *
 * The controls show the same text does get in here, so the test can fail: a process started
 * from the pane's shell before pi (same session and terminal, with the teammate's privileges:
 * without CAP_SYS_ADMIN where the leader is root) types into pi's editor and the leader's model
 * answers it; and where this test runs as root with CAP_SYS_ADMIN, the test process itself types
 * through `/proc/<leader pid>/fd/0` from outside the session, which is what dropping the
 * capability takes away. Because the terminal's input queue is first in, first out, a marker
 * typed by the teammate would have reached the leader before the first control did.
 * Skipped where tmux or python3 is missing, or the kernel refuses TIOCSTI to every process
 * without CAP_SYS_ADMIN (dev.tty.legacy_tiocsti = 0), when there is nothing to show.
 */
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { execFileSync, spawnSync } from "node:child_process";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { quote } from "shell-quote";
import { afterEach, describe, expect, it } from "vitest";
import { CAP_SYS_ADMIN, capMask, capsDrop, hasCap, readHostCaps } from "../../src/process/index.ts";
import { agentFile } from "../support/leader.ts";
import { waitUntil } from "../support/team.ts";
import { HAS_TMUX, startTuiTeam, type TuiTeam } from "../support/tmux.ts";

const PROBE_EXTENSION = fileURLToPath(new URL("../fixtures/tiocsti-probe.ts", import.meta.url));
const PROBE_PY = fileURLToPath(new URL("../fixtures/tiocsti.py", import.meta.url));
const HAS_PYTHON = spawnSync("python3", ["-c", "import fcntl, termios; termios.TIOCSTI"]).status === 0;
const LEGACY = existsSync("/proc/sys/dev/tty/legacy_tiocsti") ? readFileSync("/proc/sys/dev/tty/legacy_tiocsti", "utf8").trim() : "1";
const SKIP = !HAS_TMUX ? "tmux is missing" : !HAS_PYTHON ? "python3 (fcntl, termios) is missing: the probe needs it to call TIOCSTI" : LEGACY === "0" ? "the kernel refuses TIOCSTI without CAP_SYS_ADMIN (dev.tty.legacy_tiocsti = 0)" : undefined;
if (SKIP) console.warn(`tui-terminal: skipped: ${SKIP}`);
/** The `setpriv` prefix teammates get here (none unless root with setpriv): the in-session control gets the same. */
const DROP = capsDrop(await readHostCaps()).prefix;
/** This test process may type into another session's terminal (root with CAP_SYS_ADMIN): the second control. */
const TEST_HAS_SYS_ADMIN = existsSync("/proc/self/status") && hasCap(capMask(readFileSync("/proc/self/status", "utf8"), "CapEff"), CAP_SYS_ADMIN) === true;

interface Attempt {
  path: string;
  steal: boolean;
  result: string;
  sid: number;
  capEff: string;
}

let team: TuiTeam | undefined;
let dir: string | undefined;
afterEach(async () => {
  await team?.stop();
  team = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

/** Session id of `pid` (/proc/<pid>/stat, field 6). */
function sessionOf(pid: number): number {
  return Number(readFileSync(`/proc/${pid}/stat`, "utf8").replace(/^.*\) /s, "").split(" ")[3]);
}

describe.skipIf(SKIP !== undefined)("a teammate cannot type into the user's terminal", () => {
  it("TIOCSTI from a role extension fails three ways and nothing reaches the editor; from the pane's own session it does", async () => {
    dir = mkdtempSync(join(tmpdir(), "prt-tiocsti-"));
    const tag = randomBytes(3).toString("hex");
    const marker = `INJECTED${tag}`;
    const controls = [`CONTROLA${tag}`, `CONTROLB${tag}`];
    const fifo = join(dir, "control.fifo");
    const controlOut = join(dir, "control.json");
    const probeOut = join(dir, "probe.json");
    team = await startTuiTeam({
      handler: (c) => {
        if (c.agent === "leader") {
          if (c.lastUser === "PROBE" && c.toolResults.length === 0) return { toolCalls: [{ name: "teammate_spawn", arguments: { name: "mallory", agent: "prober", prompt: "Run the probe." } }] };
          return { text: `Heard ${c.lastUser.slice(0, 20)}.` };
        }
        return c.toolResults.length === 0 ? { toolCalls: [{ name: "tiocsti_probe", arguments: {} }] } : { text: "Probe done." };
      },
      agents: { "prober.md": agentFile("prober", "You probe.", { tools: "tiocsti_probe", extensions: JSON.stringify([PROBE_EXTENSION]) }) },
      extraEnv: { PRT_TIOCSTI_MARKER: marker, PRT_TIOCSTI_OUT: probeOut },
      // The first control: started in the pane before pi, so it shares pi's session and terminal;
      // it waits on the FIFO for the text to type.
      prelude: [`mkfifo ${quote([fifo])}`, `${quote([...DROP, "python3", PROBE_PY, "/dev/tty", "-"])} < ${quote([fifo])} > ${quote([controlOut])} 2>&1 &`],
    });
    const { tui: t, model: m } = team;
    const leaderGot = (text: string) => m.callsOf("leader").some((c) => JSON.stringify(c.messages).includes(text));

    await waitUntil("the TUI to show the model", () => /scripted-1\s*$/m.test(t.screen()), 30_000);
    t.type("PROBE");
    await waitUntil("the probe's report", () => existsSync(probeOut));
    const probe = JSON.parse(readFileSync(probeOut, "utf8")) as { leaderPid: number; attempts: Attempt[] };
    const leaderSession = sessionOf(probe.leaderPid);
    // /dev/tty: no controlling terminal. /proc/<leader pid>/fd/0: a root teammate without
    // CAP_SYS_PTRACE may not even open the fds of the leader, which has more capabilities (EACCES);
    // a non-root one opens it and the ioctl is refused (EPERM), as is taking the terminal (steal).
    const results = probe.attempts.map((a) => a.result);
    expect(results[0]).toBe("open ENXIO");
    expect(results.slice(1)).toEqual(DROP.length > 0 ? ["open EACCES", "open EACCES"] : ["ioctl EPERM", "steal EPERM"]);
    for (const a of probe.attempts) {
      expect(a.sid, `${a.path}${a.steal ? " (steal)" : ""} runs outside the leader's session`).not.toBe(leaderSession);
      if (DROP.length > 0) expect(hasCap(BigInt(`0x${a.capEff}`), CAP_SYS_ADMIN), "no CAP_SYS_ADMIN under setpriv").toBe(false);
    }

    // Control A: the same probe from the pane's own session types into pi's editor.
    writeFileSync(fifo, `${controls[0]}\r`);
    await waitUntil("the leader's model to get control A as typed text", () => leaderGot(controls[0]!));
    const control = JSON.parse(readFileSync(controlOut, "utf8")) as Attempt;
    expect(control).toMatchObject({ path: "/dev/tty", result: "ok", sid: leaderSession });
    // Control B: with CAP_SYS_ADMIN, a process outside the session types through the leader's stdin.
    if (TEST_HAS_SYS_ADMIN) {
      const b = JSON.parse(execFileSync("python3", [PROBE_PY, `/proc/${probe.leaderPid}/fd/0`, `${controls[1]}\r`], { encoding: "utf8" })) as Attempt;
      expect(b.result).toBe("ok");
      await waitUntil("the leader's model to get control B as typed text", () => leaderGot(controls[1]!));
    }
    await waitUntil("the leader's answer to control A on screen", () => t.screen().includes(`Heard ${controls[0]}.`));

    expect(leaderGot(marker)).toBe(false);
    expect(t.screen()).not.toContain(marker);
    expect(m.calls.some((c) => JSON.stringify(c.messages).includes(marker))).toBe(false);
  });
});
