/** Renders the launcher benchmark as the "## Launchers: spawn and peer messages" section of docs/benchmarks.md. */
import { reproduceLines, type Machine } from "../route/report.ts";
import { median, ms, stats } from "../route/stats.ts";
import type { LaunchMailTimes, LaunchSpawnTimes } from "./measure.ts";
import type { Skipped } from "./setup.ts";

export const LAUNCH_SECTION_TITLE = "## Launchers: spawn and peer messages";

/** Everything one run measured. */
export interface LaunchResults {
  machine: Machine;
  rounds: number;
  mailCount: number;
  gapMs: number;
  spawn: LaunchSpawnTimes;
  mail: LaunchMailTimes[];
  skipped: Skipped[];
  elapsedS: number;
}

const runs = (xs: readonly number[]): string => xs.map((x) => x.toFixed(0)).join(", ");
const ratio = (a: number, b: number): string => (Number.isFinite(a / b) ? (a / b).toFixed(2) : "n/a");

function spawnTable(r: LaunchResults): string[] {
  const bare = median(r.spawn.bare);
  const local = median(r.spawn.byLauncher.get("local") ?? []);
  const row = (label: string, xs: readonly number[]): string => {
    const p50 = median(xs);
    return `| ${label} | ${ms(p50)} | ${ms(Math.min(...xs))} | ${ms(Math.max(...xs))} | ${ratio(p50, bare)} | ${ratio(p50, local)} | ${runs(xs)} |`;
  };
  return [
    `### Spawn (${r.rounds} rounds after one warm-up start of each, start order rotating each round)`,
    "",
    "| start | p50 | min | max | / bare p50 | / local p50 | runs (ms) |",
    "|---|---|---|---|---|---|---|",
    row("bare `pi --mode rpc --no-session --no-extensions`, prompted at spawn → its first model request", r.spawn.bare),
    ...[...r.spawn.byLauncher].map(([name, xs]) => row(`teammate, \`launcher: ${name}\`: \`teammate_spawn\` reply (with a kickoff) → its first model request`, xs)),
  ];
}

function mailTable(r: LaunchResults): string[] {
  const rows = r.mail.flatMap((m) => {
    const row = (dir: string, xs: readonly number[]): string => {
      const s = stats(xs);
      return `| \`${m.launcher}\` | ${dir} | ${ms(s.p50)} | ${ms(s.p90)} | ${ms(s.max)} | ${runs(xs)} |`;
    };
    return m.launcher === "local"
      ? [row("local → local (first run)", m.fromLauncher), row("local → local (second run, back)", m.toLauncher)]
      : [row(`${m.launcher} → local`, m.fromLauncher), row(`local → ${m.launcher}`, m.toLauncher)];
  });
  return [
    `### Peer messages (${r.mailCount} per direction, one at a time: each after the previous one reached its recipient, the recipient and the leader were idle again, and ${r.gapMs} ms more)`,
    "",
    "| launcher | direction | p50 | p90 | max | latencies in send order (ms) |",
    "|---|---|---|---|---|---|",
    ...rows,
  ];
}

const METHOD = [
  "Method. One real leader pi with this package on the scripted model, as in \"Real leader pi\" above (bench/leader/world.ts),",
  "with one role file per launcher (`launcher: bwrap`, `launcher: ssh:127.0.0.1`; local is the default); the ssh host is a",
  "throwaway sshd on a free port of 127.0.0.1 (tests/support/sshd.ts), reached through `piTeams.ssh.options` in the",
  "agent dir's settings.json. Every launcher first gets one check spawn (its warm-up; a launcher whose check spawn fails",
  "is skipped). Spawn: the leader model's `teammate_spawn` reply with a kickoff → the teammate's first model request",
  "(bench/leader/spawn.ts), each teammate shut down before the next start; the bare pi is started by the benchmark",
  "process itself. Peer messages: a teammate of the launcher and a local teammate, both spawned idle and woken once by",
  "the leader; the sender's `send_message` reply → the recipient's model request carrying it (bench/leader/mail.ts).",
  "Times are taken at the model endpoint. The machine is shared: compare the rows of one run, not runs with each other.",
];

const NOTES = [
  "What each number includes:",
  "",
  "- **local**: the leader starting `node <pi cli>` as its child; the teammate writes its records to the team's files",
  "  (the `files` transport), which the leader watches.",
  "- **bwrap**: the leader's pre-flight (creating the hidden dirs and the teammate's private dir with its agent-dir",
  "  binds, and copying the host's jiti transpile cache entries of this package's entry modules and worker bundle",
  "  into its own `TMPDIR`: src/launch/transpile-cache.ts), bubblewrap's mount, pid and IPC namespaces and bind",
  "  mounts, then the same pi inside. Without that copy a box transpiled the 88 KB worker bundle at every start: a",
  "  p50 of 1977 ms in the run before the copy, against 772 ms local. Its records (reports, mail, board intents)",
  "  travel over its RPC pipe (the `stream` transport), not through files.",
  "- **ssh:127.0.0.1**: the leader's reachability probe (`ssh -T -o BatchMode=yes ... true`, a whole connection and",
  "  login of its own) before the spawn, then the real connection: TCP, key exchange, public-key login, the remote",
  "  shell running `cd && exec env ... pi`. Pi's own start on the host is the same as local's. Its records travel over",
  "  the ssh connection (the `stream` transport): a peer message crosses it once, as the sender's record to the leader",
  "  or as the leader's wake prompt to the recipient (leader ↔ ssh client ↔ encrypted TCP ↔ sshd ↔ pi); its model",
  "  requests go straight to the model. On a real remote host add the network's round trips to every crossing.",
  "- **Peer messages** between a stream teammate and a local one always pass through the leader: the stream sender's",
  "  record reaches it on the sender's pipe, a local sender's through the team's mail files; the leader writes the",
  "  recipient's wake prompt to its stdin (for a stream recipient that is its pipe, through bwrap or ssh).",
];

/** The whole section, Markdown, starting with its "## " title. */
export function renderLaunchSection(r: LaunchResults): string {
  const [, ...rest] = reproduceLines("bench:launchers", "bench/launchers.ts", r.elapsedS, r.machine);
  const skipped = r.skipped.length === 0
    ? []
    : ["", ...r.skipped.map((s) => `Not measured: \`${s.name}\`: ${s.reason}.`)];
  return [
    LAUNCH_SECTION_TITLE,
    "",
    "Reproduce: `npm run bench:launchers` (prints this section; `node_modules/.bin/node bench/launchers.ts --write` also writes",
    ...rest,
    `Env: BENCH_LAUNCH_ROUNDS=${r.rounds}, BENCH_LAUNCH_MAIL_N=${r.mailCount}.`,
    ...skipped,
    "",
    ...METHOD,
    "",
    ...spawnTable(r),
    "",
    ...mailTable(r),
    "",
    ...NOTES,
    "",
  ].join("\n");
}
