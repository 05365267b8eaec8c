/**
 * `npm run demo`: a real leader `pi --mode rpc` with this package plays a team scenario against a
 * scripted model on 127.0.0.1 (no network, no API key), in a temp project that is deleted at the end.
 * The transcript is printed as things happen; the summary's checks decide the exit code.
 *
 * Phases run in order on one leader session: the team (mail, reports, steer, shutdown), then the
 * task board (tasks, notices, claims, verify gate, results), then isolation (a shared-tree edit
 * guard, worktree teammates, a handoff), then a heartbeat (a stuck teammate).
 * `--tui` instead opens the real pi TUI in this terminal on the board scene (demo/try.ts).
 */
import { resolve } from "node:path";
import { boardPhase } from "./board-phase.ts";
import { consolePhase } from "./console-phase.ts";
import { isolationPhase } from "./isolation-phase.ts";
import { openStage, type Phase } from "./stage.ts";
import { stallPhase } from "./stall-phase.ts";
import { teamPhase } from "./team-phase.ts";
import { Transcript } from "./transcript.ts";
import { tryTui } from "./try.ts";

/** `--export <file>`: keep the run's HTML export there (the console phase writes it). */
const EXPORT_AT = process.argv.indexOf("--export");
const KEEP_EXPORT = EXPORT_AT >= 0 ? resolve(process.argv[EXPORT_AT + 1] ?? "team-run.html") : undefined;
const PHASES: (() => Phase)[] = [teamPhase, boardPhase, isolationPhase, stallPhase, () => consolePhase(KEEP_EXPORT)];
/** The phases must finish inside a minute (about 25 s idle, up to about 36 s on a busy 2-core machine). */
const DEADLINE_MS = 60_000;

async function main(): Promise<number> {
  // A closed stdout (`npm run demo | head`) must not skip the teardown below.
  process.stdout.on("error", () => undefined);
  const log = new Transcript();
  log.plain("pi-resident-teams demo: a real leader pi, resident teammates, a task board, a scripted model (no network, no key).");
  log.plain("Columns: time since start, who (a process, the harness, roster.json or board.json), what was observed.");
  log.heading("setup");
  const { stage, close } = await openStage(log);
  process.once("SIGINT", () => {
    log.plain("\ninterrupted: tearing down");
    void close().finally(() => process.exit(130));
  });
  const summary: string[] = [];
  const failures: string[] = [];
  let deadline: NodeJS.Timeout | undefined;
  try {
    const play = async () => {
      for (const make of PHASES) {
        const result = await stage.play(make());
        summary.push(...result.summary);
        failures.push(...result.failures);
      }
    };
    await Promise.race([
      play(),
      new Promise<never>((_, reject) => {
        deadline = setTimeout(() => reject(new Error(`the scenario did not finish within ${DEADLINE_MS} ms`)), DEADLINE_MS);
      }),
    ]);
  } catch (error) {
    failures.push(error instanceof Error ? error.message : String(error));
  } finally {
    clearTimeout(deadline);
    log.heading("teardown");
    const teardown = await close();
    summary.push(...teardown.summary);
    failures.push(...teardown.problems);
  }
  log.heading("summary");
  for (const line of summary) log.plain(`  ${line}`);
  log.plain(`  wall time: ${log.ms()} ms`);
  if (failures.length > 0) {
    log.plain(`\nDEMO FAILED (${failures.length}):`);
    for (const f of failures) log.plain(`  - ${f}`);
    return 1;
  }
  log.plain("\nAll checks held.");
  return 0;
}

(process.argv.includes("--tui") ? tryTui() : main()).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`demo: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
