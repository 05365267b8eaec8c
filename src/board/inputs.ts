/**
 * Board tool inputs: typebox parameter schemas with a plain object root (L25) and the
 * normalisers that turn raw tool arguments into core inputs. Arrays given as JSON strings are
 * accepted (L26); anything unparseable is rejected naming the field and the value received.
 */
import { Type, type Static } from "typebox";
import { isRecord } from "../is-record.ts";
import type { CreateInput } from "./create.ts";
import { MESSAGE_MAX_BYTES, messageBytes } from "../mail/limits.ts";
import { MAX_ID_LENGTH } from "./slug.ts";

/**
 * Longest task_submit `result`, in characters (code points). It matches the board intent's limit
 * (`INTENT_RESULT_MAX_CHARS` in src/mail/intents.ts), so a longer result is refused here at once
 * rather than by the leader; the board itself keeps only the first `RESULT_LIMIT` characters.
 */
export const SUBMIT_RESULT_MAX_CHARS = 60_000;

/** An id list as a real array or as a JSON-encoded array string (L26). */
const IdList = (description: string) =>
  Type.Union([Type.Array(Type.String()), Type.String()], { description: `${description} Array of task ids, e.g. ["fix-auth"].` });

/** task_create parameters (R34). */
export const TaskCreateParams = Type.Object({
  subject: Type.String({ description: "Short imperative subject; the task id is derived from it." }),
  description: Type.Optional(Type.String({ description: "What to do and where." })),
  dependsOn: Type.Optional(IdList("Tasks that must complete before this one can be claimed.")),
  verify: Type.Optional(Type.String({ description: "Acceptance criteria a reviewer can check (not shell commands); overrides the role's verify." })),
  resources: Type.Optional(
    Type.Union([Type.Array(Type.String()), Type.String()], { description: 'Path-like tags this task mutates, e.g. ["packages/api/auth"]; overlapping tasks never run at once.' }),
  ),
  supersedes: Type.Optional(IdList("Obsolete pending or claimed tasks this one replaces.")),
});
/** Raw task_create arguments as the schema admits them (before `normalizeCreateInput`). */
export type TaskCreateArgs = Static<typeof TaskCreateParams>;

/** task_list parameters (R46). */
export const TaskListParams = Type.Object({
  offset: Type.Optional(Type.Integer({ minimum: 0, description: "First task of the page (0-based)." })),
  taskId: Type.Optional(Type.String({ description: "Show this one task in full (its whole result, state and criteria) instead of the page." })),
});
/** task_list arguments. */
export type TaskListArgs = Static<typeof TaskListParams>;

/** task_claim parameters (R37). */
export const TaskClaimParams = Type.Object({
  taskId: Type.Optional(Type.String({ description: "Task to claim; omit to claim the first claimable task." })),
});

/** task_submit parameters (R39). */
export const TaskSubmitParams = Type.Object({
  taskId: Type.String(),
  // A plain string, checked by normalizeSubmitInput: its error names both accepted values, where a
  // schema union's answer named only the first.
  status: Type.String({ description: '"completed" (done; goes through its verify gate) or "failed" (returns it to the board with your reason).' }),
  result: Type.Optional(Type.String({ description: "What was done (completed) or why it failed (failed)." })),
});

/** A normalised input, or a rejection naming the field. */
export type InputResult<T> = { ok: true; value: T } | { ok: false; reason: "invalid_input"; field: string; message: string };

const bad = (field: string, value: unknown, expected: string): InputResult<never> => ({
  ok: false,
  reason: "invalid_input",
  field,
  message: `${field}: got ${shown(value)}; expected ${expected}.`,
});

/** A value for a message: its JSON, cut to 60 characters with its full length when longer. */
function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  if (text.length <= 60) return text;
  const size = typeof value === "string" ? `${chars(value)} characters` : `${text.length} characters of JSON`;
  return `${text.slice(0, 57)}... (${size})`;
}

/** Length in characters (code points, so an emoji counts once). */
function chars(text: string): number {
  let n = 0;
  for (const _ of text) n += 1;
  return n;
}

/** A task id no longer than any board task id can be (slugs are cut to `MAX_ID_LENGTH`). */
function taskIdProblem(id: string): InputResult<never> | undefined {
  if (chars(id) <= MAX_ID_LENGTH) return undefined;
  return bad("taskId", id, `a task id of at most ${MAX_ID_LENGTH} characters, as task_list shows it (no task has a longer id)`);
}

function strings(field: string, value: unknown[], original: unknown): InputResult<string[]> {
  const out: string[] = [];
  for (const item of value) {
    if (typeof item !== "string") return bad(field, original, "an array of strings");
    out.push(item);
  }
  return { ok: true, value: out };
}

/**
 * A string list from a real array, a JSON array string (`'["a","b"]'`), a one-element array
 * wrapping such a string (a coercion artefact), or undefined/null/"" (empty list). Rejects other
 * strings and non-string items, naming `field` and the value.
 */
export function parseStringList(field: string, value: unknown): InputResult<string[]> {
  const expected = 'an array of strings, e.g. ["a", "b"], or that array as a JSON string';
  if (value === undefined || value === null) return { ok: true, value: [] };
  if (Array.isArray(value)) {
    const only = value.length === 1 ? value[0] : undefined;
    if (typeof only === "string" && only.trim().startsWith("[")) return parseStringList(field, only);
    return strings(field, value, value);
  }
  if (typeof value !== "string") return bad(field, value, expected);
  const text = value.trim();
  if (text === "") return { ok: true, value: [] };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return bad(field, value, expected);
  }
  if (!Array.isArray(parsed)) return bad(field, value, expected);
  return strings(field, parsed, value);
}

/** Longest task subject, in characters: a title for the board and the console. */
export const SUBJECT_MAX_CHARS = 200;

function optionalString(field: string, value: unknown, maxBytes?: number): InputResult<string | undefined> {
  if (value === undefined || value === null) return { ok: true, value: undefined };
  if (typeof value !== "string") return bad(field, value, "a string");
  if (maxBytes !== undefined && messageBytes(value) > maxBytes) return bad(field, value, `a string of at most ${maxBytes} bytes (as JSON, UTF-8), the limit of every message`);
  return { ok: true, value };
}

function record(value: unknown): Record<string, unknown> | undefined {
  return isRecord(value) ? value : undefined;
}

/** Normalises raw task_create arguments (L26). */
export function normalizeCreateInput(raw: unknown): InputResult<CreateInput> {
  const args = record(raw);
  if (!args) return bad("arguments", raw, "an object");
  const subjectOk = typeof args.subject === "string" && args.subject.trim() !== "" && chars(args.subject.trim()) <= SUBJECT_MAX_CHARS;
  if (!subjectOk) return bad("subject", args.subject, `a non-empty string of at most ${SUBJECT_MAX_CHARS} characters (put the detail in description)`);
  const subject = args.subject as string;
  const description = optionalString("description", args.description, MESSAGE_MAX_BYTES);
  if (!description.ok) return description;
  const verify = optionalString("verify", args.verify, MESSAGE_MAX_BYTES);
  if (!verify.ok) return verify;
  const dependsOn = parseStringList("dependsOn", args.dependsOn);
  if (!dependsOn.ok) return dependsOn;
  const resources = parseStringList("resources", args.resources);
  if (!resources.ok) return resources;
  const supersedes = parseStringList("supersedes", args.supersedes);
  if (!supersedes.ok) return supersedes;
  return {
    ok: true,
    value: {
      subject,
      ...(description.value !== undefined ? { description: description.value } : {}),
      ...(verify.value !== undefined ? { verify: verify.value } : {}),
      dependsOn: dependsOn.value,
      resources: resources.value,
      supersedes: supersedes.value,
    },
  };
}

/** Normalises raw task_claim arguments: an optional non-empty task id. */
export function normalizeClaimInput(raw: unknown): InputResult<{ taskId?: string }> {
  const args = record(raw ?? {});
  if (!args) return bad("arguments", raw, "an object");
  const taskId = optionalString("taskId", args.taskId);
  if (!taskId.ok) return taskId;
  const id = taskId.value?.trim();
  const tooLong = id ? taskIdProblem(id) : undefined;
  if (tooLong) return tooLong;
  return { ok: true, value: id ? { taskId: id } : {} };
}

/** Normalises raw task_submit arguments: task id, status `completed` or `failed`, optional result. */
export function normalizeSubmitInput(raw: unknown): InputResult<{ taskId: string; status: "completed" | "failed"; result?: string }> {
  const args = record(raw);
  if (!args) return bad("arguments", raw, "an object");
  if (typeof args.taskId !== "string" || args.taskId.trim() === "") return bad("taskId", args.taskId, "a task id string");
  const status = typeof args.status === "string" ? args.status.trim().toLowerCase() : args.status;
  if (status !== "completed" && status !== "failed") return bad("status", args.status, '"completed" or "failed"');
  const taskId = args.taskId.trim();
  const tooLong = taskIdProblem(taskId);
  if (tooLong) return tooLong;
  const result = optionalString("result", args.result);
  if (!result.ok) return result;
  if (result.value !== undefined && chars(result.value) > SUBMIT_RESULT_MAX_CHARS) {
    return bad(
      "result",
      result.value,
      `at most ${SUBMIT_RESULT_MAX_CHARS} characters; summarise it, or write the details to a file and give its path`,
    );
  }
  return { ok: true, value: { taskId, status, ...(result.value !== undefined ? { result: result.value } : {}) } };
}
