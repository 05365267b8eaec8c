/**
 * The bad-input matrix of the fault suite (case 7): rows of one tool call each, the rule that
 * judges an answer, and the Markdown table. A row says which field is wrong and which part of
 * the value a clear answer names; the judge checks the tool's real answer for the field, the
 * value and a statement of what is accepted, with nothing echoed back in bulk.
 */

/** Which side's tool: the leader's pi or a teammate's pi. */
export type Side = "leader" | "worker";

/** One bad (or borderline) tool call and what a clear answer must contain. */
export interface MatrixRow {
  /** Stable id, used by the known-gaps list (e.g. "L-spawn-name-slash"). */
  id: string;
  side: Side;
  tool: string;
  /** Short human description of the input for the table, e.g. `name: "a/b"`. */
  input: string;
  /** The arguments as the model sends them; not always an object (that is a row too). */
  args: unknown;
  /**
   * `error`: must be refused naming `field`, `value` and what is accepted.
   * `accepted`: valid by design (a JSON-string array, a stray status noted): must succeed.
   */
  expect: "error" | "accepted";
  /**
   * The field a clear answer names, matched as a whole word, case-insensitive. `to` is a common
   * word, so for it the answer must say `to:`, `"to"`, `` `to` `` or "recipient".
   */
  field?: string;
  /** Text a clear answer contains to name the value, e.g. `"a/b"` or "3000000". */
  value?: string;
  /** Text a clear answer must contain to say what is accepted, when the generic words are not enough. */
  accepts?: string;
  /** Stream the arguments in deltas this large (multi-megabyte rows). */
  chunkSize?: number;
}

/** One row's answer and verdict. */
export interface MatrixResult {
  row: MatrixRow;
  isError: boolean | undefined;
  text: string;
  verdict: "clear" | "unclear" | "accepted" | "not accepted";
  /** Why a row is unclear: the missing parts. */
  why: string[];
}

/**
 * Words that say what is accepted or what to do instead: a rule ("expected", "at most"), a list
 * of the accepted values ("Living teammates:", "Available agents:", "can hand off:") or where to
 * find them ("call task_list").
 */
const ACCEPTED_HINT = /accepted|expected|must|at most|use |living teammates|living:|available|one of|allowed|choose|shorten|required|valid|instead|only|call task_list|can hand off|first with/i;

/** An answer longer than this echoes the input back (a multi-megabyte value must not come back). */
export const MAX_ANSWER_CHARS = 4000;

/** Lower-cased text with JSON-escaped quotes undone, so `\"a/b\"` counts as `"a/b"`. */
function plain(text: string): string {
  return text.replace(/\\"/g, '"').toLowerCase();
}

/**
 * Judges one answer. An `error` row is clear when the call failed, the text names the field and
 * the value, says what is accepted, and stays under MAX_ANSWER_CHARS. An `accepted` row must
 * not fail. `isError` is undefined on the worker side (pi does not tell the model), where a
 * failure is recognised by its text not being a success message.
 */
export function judge(row: MatrixRow, isError: boolean | undefined, text: string): MatrixResult {
  const t = plain(text);
  const failed = isError ?? !/^(queued:|claimed task|spawned teammate|created task|board )/i.test(text.trim());
  if (row.expect === "accepted") {
    return { row, isError, text, verdict: failed ? "not accepted" : "accepted", why: failed ? ["refused"] : [] };
  }
  const why: string[] = [];
  if (!failed) why.push("not refused");
  if (row.field && !fieldPattern(row.field).test(text)) why.push(`field \`${row.field}\` not named`);
  if (row.value && !t.includes(row.value.toLowerCase())) why.push(`value ${row.value} not named`);
  if (!ACCEPTED_HINT.test(text)) why.push("does not say what is accepted");
  else if (row.accepts && !t.includes(row.accepts.toLowerCase())) why.push(`does not name the accepted ${row.accepts}`);
  if (text.length > MAX_ANSWER_CHARS) why.push(`answer is ${text.length} characters (echoes the input)`);
  return { row, isError, text, verdict: why.length === 0 ? "clear" : "unclear", why };
}

function fieldPattern(field: string): RegExp {
  if (field === "to") return /\bto\s*[:=]|"to"|`to`|\brecipient\b/i;
  return new RegExp(`(^|[^A-Za-z0-9_])${field.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}([^A-Za-z0-9_]|$)`, "i");
}

/** The answer cut to one table cell: first 160 characters, one line, pipes escaped. */
export function excerpt(text: string, max = 160): string {
  const one = text.replace(/\s+/g, " ").trim();
  const cut = one.length > max ? `${one.slice(0, max - 1)}…` : one;
  return cut.replace(/\|/g, "\\|");
}

/** The matrix as table rows (header first) for the figures and docs/reliability.md. */
export function matrixTable(results: readonly MatrixResult[]): string[][] {
  const header = ["side", "tool", "input", "answer (excerpt)", "verdict"];
  const rows = results.map((r) => [
    r.row.side,
    `\`${r.row.tool}\``,
    r.row.input.replace(/\|/g, "\\|"),
    excerpt(r.text),
    r.verdict === "unclear" ? `**unclear**: ${r.why.join("; ")}` : r.verdict,
  ]);
  return [header, ...rows];
}
