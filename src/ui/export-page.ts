/**
 * The run export (issue 20 scope 5): one self-contained HTML page of a team run, with the drawn
 * timeline, the teammates and their costs, the board with results, verdicts and costs per task,
 * the mail, and each teammate's transcript (Pi's own export of its session file, embedded in a
 * sandboxed frame, or our plain lines). Pure: data in, the page out; no script of its own, no
 * link outside the file, every text from the team escaped (a teammate writes much of it).
 */
import { MAIL_ROWS, type TimelineEvent } from "../feed/index.ts";
import type { ConsoleSnapshot, TeammateRow } from "./console-model.ts";
import { html as esc } from "./html-text.ts";
import { formatCost, formatTokens } from "./format.ts";
import { clockLabel, PHASE_COLOURS, timelineSvg } from "./timeline-svg.ts";

/** One incarnation's transcript: Pi's export page, or lines, or a note why there is none. */
export interface ExportTranscript {
  readonly name: string;
  readonly spawnId: string;
  /** Pi's `--export` page of its session file, embedded as a sandboxed frame. */
  readonly html?: string;
  /** Plain transcript lines, where Pi's export failed. */
  readonly lines?: readonly string[];
  /** Why neither is there (no session file, its launcher runs pi elsewhere, ...). */
  readonly note?: string;
}

/** One incarnation's row: the console's row and its spawn id. */
export type ExportTeammate = TeammateRow & { readonly spawnId: string };

/** What the page is made of. Times in ms since the epoch. */
export interface RunExportInput {
  /** The session's key (its board), for the heading. */
  readonly key: string;
  readonly cwd: string;
  readonly startedAt: number;
  readonly endedAt: number;
  /** Board, mail, counts and team model; its `teammates` are not used (see `teammates`). */
  readonly snapshot: ConsoleSnapshot;
  /** Every incarnation of the run, earlier ones a respawn replaced included, oldest first. */
  readonly teammates: readonly ExportTeammate[];
  readonly timeline: readonly TimelineEvent[];
  readonly transcripts: readonly ExportTranscript[];
}

/** Nothing from outside the file; inline script (Pi's, in the frames only) and style; data: images and fonts. */
export const CSP = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; font-src data:";

const STYLE = `body{font-family:system-ui,sans-serif;margin:24px;color:#222;max-width:1100px}
h1{font-size:22px}h2{font-size:17px;margin-top:28px;border-bottom:1px solid #ddd}
table{border-collapse:collapse;width:100%;font-size:13px}th,td{border-bottom:1px solid #eee;padding:4px 6px;text-align:left;vertical-align:top}
th{background:#f6f6f6}td.n{text-align:right;white-space:nowrap}pre{white-space:pre-wrap;font-size:12px;background:#f8f8f8;padding:6px;margin:4px 0}
.legend span{display:inline-block;margin-right:14px;font-size:12px}.legend i{display:inline-block;width:12px;height:12px;margin-right:4px;vertical-align:-2px}
iframe{width:100%;height:640px;border:1px solid #ccc}details{margin:4px 0}summary{cursor:pointer}.muted{color:#777}`;

/** The whole page. */
export function exportPage(r: RunExportInput): string {
  const s = r.snapshot;
  const at = (t: number): string => clockLabel(t - r.startedAt);
  const tokens = r.teammates.reduce((n, m) => n + m.tokens, 0);
  const cost = r.teammates.reduce((n, m) => n + m.cost, 0);
  const messages = s.mail.map((m) => ({ at: m.at, from: m.from, to: m.to, title: m.title }));
  const counts = Object.entries(s.counts).filter(([, n]) => n > 0).map(([k, n]) => `${n} ${k}`).join(", ") || "no tasks";
  const page = [
    "<!doctype html>",
    // Pi's export script in a frame turns markdown images into <img src="https://…">: the policy,
    // which srcdoc frames inherit, keeps the page from reaching anything outside the file.
    `<html lang="en"><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="${CSP}"><meta name="viewport" content="width=device-width"><title>Team run ${esc(r.key)}</title><style>${STYLE}</style></head><body>`,
    `<h1>Team run <code>${esc(r.key)}</code></h1>`,
    `<p>${esc(r.cwd)} · ${new Date(r.startedAt).toISOString()} to ${new Date(r.endedAt).toISOString()} (${clockLabel(r.endedAt - r.startedAt)}) · ${r.teammates.length} teammate incarnation${r.teammates.length === 1 ? "" : "s"} · ${esc(counts)} · ${s.mail.length} mail rows · teammates ${formatTokens(tokens)} tokens ${formatCost(cost)} · ${esc(s.teamModel)}</p>`,
    "<h2>Timeline</h2>",
    `<p class="legend">${Object.entries(PHASE_COLOURS).map(([p, c]) => `<span><i style="background:${c}"></i>${p}</span>`).join("")}<span>▲ claimed</span><span>◆ in review</span><span>● completed</span><span>✕ parked</span><span><i style="background:#3182bd;width:2px"></i>message</span></p>`,
    timelineSvg({ events: r.timeline, messages, start: r.startedAt, end: r.endedAt, names: r.teammates.map((m) => m.name) }),
    "<h2>Teammates</h2>",
    table(["teammate", "spawn", "role", "model", "status", "tokens", "cost", "tasks", "branch"], r.teammates.map((m) => [
      `@${esc(m.name)}`, `<code>${esc(m.spawnId.slice(0, 8))}</code>`, esc(m.agent), esc(m.model), esc(m.status + (m.exit ? ` (exit ${m.exit.code ?? m.exit.signal})` : "")),
      num(formatTokens(m.tokens)), num(formatCost(m.cost)), esc(m.tasks.map((t) => t.id).join(", ")), esc(m.branch ?? ""),
    ])),
    "<h2>Board</h2>",
    table(["task", "status", "by", "verify", "tokens", "cost", "details"], s.tasks.map((t) => [
      `<code>${esc(t.id)}</code><br>${esc(t.subject)}`, esc(t.status), esc(t.holder ?? t.completedBy ?? ""), esc(t.verify),
      num(formatTokens(t.tokens)), num(formatCost(t.cost)),
      [detail("description", t.description), detail("criteria", t.criteria?.text), detail("result", t.result), detail("reviewer findings", t.findings)].join(""),
    ])),
    `<p class="muted">A task's cost is its holders' usage while they held it, plus its reviewers'.</p>`,
    "<h2>Mail</h2>",
    table(["at", "kind", "from → to", "message", "receipt"], s.mail.map((m) => [
      esc(at(m.at)), esc(m.kind), `${esc(m.from)} → ${esc(m.to)}`, m.body ? detail(m.title, m.body) : esc(m.title), esc(m.receipt),
    ])),
    s.mail.length >= MAIL_ROWS ? `<p class="muted">The last ${MAIL_ROWS} rows: the console keeps no more.</p>` : "",
    "<h2>Transcripts</h2>",
    r.transcripts.length === 0 ? `<p class="muted">No teammate ran in this session.</p>` : r.transcripts.map(transcript).join("\n"),
    "</body></html>",
  ];
  return page.join("\n");
}

function num(text: string): { cell: string; n: true } {
  return { cell: esc(text), n: true };
}

function table(head: readonly string[], rows: readonly (readonly (string | { cell: string; n: true })[])[]): string {
  if (rows.length === 0) return `<p class="muted">(none)</p>`;
  const cells = (row: readonly (string | { cell: string; n: true })[]): string =>
    row.map((c) => (typeof c === "string" ? `<td>${c}</td>` : `<td class="n">${c.cell}</td>`)).join("");
  return `<table><thead><tr>${head.map((h) => `<th>${esc(h)}</th>`).join("")}</tr></thead><tbody>\n${rows.map((r) => `<tr>${cells(r)}</tr>`).join("\n")}\n</tbody></table>`;
}

function detail(summary: string, body: string | undefined): string {
  if (!body) return "";
  return `<details><summary>${esc(summary)}</summary><pre>${esc(body)}</pre></details>`;
}

function transcript(t: ExportTranscript): string {
  const head = `<summary>@${esc(t.name)} <span class="muted">(${esc(t.spawnId)})</span></summary>`;
  // The frame runs Pi's export script but has no origin of its own: it cannot reach this page.
  if (t.html) return `<details class="transcript">${head}<iframe sandbox="allow-scripts" title="@${esc(t.name)} transcript" srcdoc="${esc(t.html)}"></iframe></details>`;
  if (t.lines) return `<details class="transcript">${head}<pre>${esc(t.lines.join("\n"))}</pre></details>`;
  return `<details class="transcript">${head}<p class="muted">${esc(t.note ?? "(no transcript)")}</p></details>`;
}
