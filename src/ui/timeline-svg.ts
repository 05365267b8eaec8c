/**
 * The run export's timeline (issue 20 scope 5), drawn as SVG: one lane per teammate, coloured by
 * phase over time (starting, working, idle, stopping; nothing once stopped), with marks for the
 * tasks it claimed, submitted and completed and for the messages it sent or got. Pure: the
 * events in, one `<svg>` string out; every text escaped.
 */
import type { PhaseEvent, TimelineEvent } from "../feed/index.ts";
import { html } from "./html-text.ts";

/** A message as a mark: its time (ms), ends and title. */
export interface TimelineMessage {
  readonly at: number;
  readonly from: string;
  readonly to: string;
  readonly title: string;
}

/** Colours of the phases; a phase not listed (stopped) is not drawn. */
export const PHASE_COLOURS: Readonly<Record<string, string>> = {
  starting: "#9ecae1",
  working: "#31a354",
  idle: "#d9d9d9",
  stopping: "#fdae6b",
};

const WIDTH = 1000;
const LABEL = 130;
const LANE = 30;
const AXIS = 28;
/** Axis steps to choose from, in ms: the first that gives at most 10 ticks. */
const STEPS = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 21600, 86400].map((s) => s * 1000);

/** `ms` since the start as `12s`, `3m05s`, `1h02m`. */
export function clockLabel(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, "0")}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, "0")}m`;
}

/**
 * The lanes' names: teammates in the order their first phase was seen, then `extra` names not
 * seen (a teammate of the snapshot whose phases the timeline lost to its bound).
 */
export function laneNames(events: readonly TimelineEvent[], extra: readonly string[] = []): string[] {
  const names: string[] = [];
  const add = (n: string): void => {
    if (!names.some((x) => same(x, n))) names.push(n);
  };
  for (const e of events) if (e.kind === "phase") add(e.name);
  for (const n of extra) add(n);
  return names;
}

/** Teammate names are case-insensitive (the harness keys them lower-cased): one lane for both spellings. */
function same(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}

/** A lane label fits the label column: at most 16 characters, the rest in the hover title. */
function label(name: string): string {
  const chars = Array.from(name);
  return chars.length <= 16 ? name : `${chars.slice(0, 15).join("")}…`;
}

/**
 * The timeline from `start` to `end` (ms, `end` > `start` or one second is drawn): one
 * `<g class="lane" data-teammate="…">` per name of `laneNames`, phase bars, task marks
 * (▲ claimed, ◆ in review, ● completed, ✕ parked) and message ticks, each with a `<title>`.
 */
export function timelineSvg(o: { events: readonly TimelineEvent[]; messages: readonly TimelineMessage[]; start: number; end: number; names?: readonly string[] }): string {
  const names = laneNames(o.events, o.names);
  const span = Math.max(1000, o.end - o.start);
  const x = (t: number): number => LABEL + (Math.min(Math.max(t, o.start), o.start + span) - o.start) / span * (WIDTH - LABEL - 10);
  const height = AXIS + names.length * LANE + 8;
  const out: string[] = [`<svg class="timeline" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${WIDTH} ${height}" width="${WIDTH}" height="${height}" font-family="sans-serif" font-size="12">`];
  const step = STEPS.find((s) => span / s <= 10) ?? STEPS.at(-1)!;
  for (let t = 0; t <= span; t += step) {
    const px = x(o.start + t).toFixed(1);
    out.push(`<line x1="${px}" y1="${AXIS - 6}" x2="${px}" y2="${height}" stroke="#eee"/><text x="${px}" y="${AXIS - 10}" text-anchor="middle" fill="#666">${clockLabel(t)}</text>`);
  }
  names.forEach((name, i) => {
    const y = AXIS + i * LANE;
    const mid = y + LANE / 2;
    out.push(`<g class="lane" data-teammate="${html(name)}">`);
    out.push(`<text x="${LABEL - 8}" y="${mid + 4}" text-anchor="end" fill="#222">@${html(label(name))}<title>@${html(name)}</title></text>`);
    const phases = o.events.filter((e): e is PhaseEvent => e.kind === "phase" && same(e.name, name));
    phases.forEach((e, j) => {
      const colour = PHASE_COLOURS[e.phase];
      if (!colour) return;
      // A bar ends at its incarnation's next change, else where the next incarnation begins.
      const until = (phases.slice(j + 1).find((n) => n.spawnId === e.spawnId) ?? phases.slice(j + 1).find((n) => n.spawnId !== e.spawnId))?.at ?? o.end;
      const x1 = x(e.at);
      const w = Math.max(1, x(until) - x1);
      out.push(`<rect class="phase ${e.phase}" x="${x1.toFixed(1)}" y="${y + 6}" width="${w.toFixed(1)}" height="${LANE - 12}" fill="${colour}"><title>@${html(name)} ${e.phase} from ${clockLabel(e.at - o.start)} to ${clockLabel(until - o.start)}</title></rect>`);
    });
    for (const m of o.messages) {
      if (!same(m.from, name) && !(same(m.to, name) && !names.some((n) => same(n, m.from)))) continue;
      const px = x(m.at).toFixed(1);
      out.push(`<line class="message" x1="${px}" y1="${y + 2}" x2="${px}" y2="${y + LANE - 2}" stroke="#3182bd" stroke-width="1.5"><title>${clockLabel(m.at - o.start)} ${html(m.from)} → ${html(m.to)}: ${html(m.title)}</title></line>`);
    }
    for (const e of o.events) {
      if (e.kind !== "task" || !e.who || !same(e.who, name)) continue;
      const glyph = TASK_GLYPHS[e.status];
      if (!glyph) continue;
      out.push(`<text class="task ${e.status}" x="${x(e.at).toFixed(1)}" y="${mid + 4}" text-anchor="middle" fill="${glyph.colour}">${glyph.char}<title>${clockLabel(e.at - o.start)} ${html(e.taskId)} ${e.status}: ${html(e.subject)}</title></text>`);
    }
    out.push("</g>");
  });
  out.push("</svg>");
  return out.join("\n");
}

const TASK_GLYPHS: Partial<Record<string, { char: string; colour: string }>> = {
  claimed: { char: "▲", colour: "#08519c" },
  in_review: { char: "◆", colour: "#756bb1" },
  completed: { char: "●", colour: "#006d2c" },
  parked: { char: "✕", colour: "#a50f15" },
};
