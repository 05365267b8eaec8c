import type { Static, TSchema } from "typebox";
import { Compile } from "typebox/compile";
import { Value } from "typebox/value";

/** Result of checking an untrusted value against a typebox schema. */
export type Checked<T> = { ok: true; value: T } | { ok: false; message: string };

/** At most this many distinct field problems are listed in one message. */
const MAX_ISSUES = 3;

/**
 * Checks `value` against `schema`. Never throws. On failure `message` lists up to three fields,
 * each as `<json pointer> is <actual value>; expected <what the schema wants>`, e.g.
 * `/status is "dead"; expected one of "starting" | "working"`. Callers prefix the file or
 * channel name (practice 10).
 */
export function checkValue<S extends TSchema>(schema: S, value: unknown): Checked<Static<S>> {
  if (checkerOf(schema)(value)) return { ok: true, value: value as Static<S> };
  return { ok: false, message: describeErrors(schema, value) };
}

/**
 * Compiles `schema`'s checker now, so the first {@link checkValue} of it costs no compile. For a
 * teammate's idle warm-up (src/worker/warm.ts). Never throws.
 */
export function precompile(schema: TSchema): void {
  checkerOf(schema);
}

// Compiled checkers by schema object. Schemas are immutable module constants, so this is a pure
// memo, not shared state: the interpreted Value.Check took 1.4-4 ms per roster read of 30
// teammates (on every send_message), the compiled one 0.07 ms; compiling costs a few ms, once.
const checkers = new WeakMap<TSchema, (value: unknown) => boolean>();

function checkerOf(schema: TSchema): (value: unknown) => boolean {
  let check = checkers.get(schema);
  if (!check) {
    try {
      const compiled = Compile(schema);
      check = (value) => compiled.Check(value);
    } catch {
      check = (value) => Value.Check(schema, value); // a schema the compiler cannot take is still checked
    }
    checkers.set(schema, check);
  }
  return check;
}

interface RawError {
  keyword: string;
  schemaPath: string;
  instancePath: string;
  params: Record<string, unknown>;
  message: string;
}

/**
 * Human-readable summary of why `value` fails `schema` (see {@link checkValue}). Union
 * (`anyOf`) failures of literals are folded into "one of a | b"; other keywords use typebox's
 * own wording. Returns "value does not match the schema" if typebox reports nothing specific.
 */
export function describeErrors(schema: TSchema, value: unknown): string {
  const errors = Value.Errors(schema, value) as unknown as RawError[];
  const byPath = new Map<string, RawError[]>();
  for (const error of errors) {
    const list = byPath.get(error.instancePath) ?? [];
    list.push(error);
    byPath.set(error.instancePath, list);
  }
  const issues: string[] = [];
  for (const [path, list] of byPath) {
    if (issues.length === MAX_ISSUES) {
      issues.push(`and ${byPath.size - MAX_ISSUES} more field(s)`);
      break;
    }
    const required = list.find((e) => e.keyword === "required");
    const missing = required?.params.requiredProperties;
    if (Array.isArray(missing) && list.every((e) => e.keyword === "required")) {
      issues.push(`${missing.map((name) => `${path}/${String(name)}`).join(", ")} missing (required)`);
      continue;
    }
    const relevant = list.filter((e) => e.keyword !== "required");
    issues.push(`${path || "(root)"} is ${showValue(valueAt(value, path))}; expected ${expectation(relevant)}`);
  }
  return issues.length > 0 ? issues.join("; ") : "value does not match the schema";
}

function expectation(list: RawError[]): string {
  const anyOf = list.find((e) => e.keyword === "anyOf");
  if (anyOf) {
    const branch = `${anyOf.schemaPath}/anyOf/`;
    const allowed = list
      .filter((e) => e.keyword === "const" && e.schemaPath.startsWith(branch))
      .map((e) => showValue(e.params.allowedValue));
    if (allowed.length > 0) return `one of ${allowed.join(" | ")}`;
  }
  const first = list.find((e) => e.keyword !== "anyOf") ?? list[0];
  if (!first) return "a valid value";
  if (first.keyword === "const") return `exactly ${showValue(first.params.allowedValue)}`;
  return `a value that ${first.message}`;
}

/** Resolves a JSON pointer (`/a/0/b`) inside `root`; undefined when a step is missing. */
function valueAt(root: unknown, pointer: string): unknown {
  if (pointer === "") return root;
  let current: unknown = root;
  for (const raw of pointer.slice(1).split("/")) {
    const key = raw.replaceAll("~1", "/").replaceAll("~0", "~");
    if (typeof current !== "object" || current === null || !Object.hasOwn(current, key)) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

/**
 * Short JSON rendering of a value for messages (max 60 chars); a cut string also gives its
 * length in characters (code points), so a length limit can be compared with it.
 */
function showValue(value: unknown): string {
  if (value === undefined) return "missing";
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  if (text.length <= 60) return text;
  const size = typeof value === "string" ? ` (${Array.from(value).length} characters)` : "";
  return `${text.slice(0, 57)}...${size}`;
}
