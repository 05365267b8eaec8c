import matter from "gray-matter";
import { errorText } from "../error-text.ts";
import { isRecord } from "../is-record.ts";

/** Frontmatter split from a Markdown file; `data` is whatever the YAML held (not yet validated). */
export type FrontmatterResult =
  | { ok: true; data: Record<string, unknown>; body: string }
  | { ok: false; message: string };

class RefusedLanguage extends Error {}

/**
 * gray-matter runs `---js` / `---javascript` frontmatter through `eval`. An agent file in a cloned
 * repository must never execute code, so every non-YAML engine is replaced by a refusal.
 */
function refuse(language: string) {
  return {
    parse(): never {
      throw new RefusedLanguage(`frontmatter language "${language}" is not accepted; only YAML frontmatter is read`);
    },
  };
}

const OPTIONS = {
  language: "yaml",
  engines: { javascript: refuse("javascript"), json: refuse("json"), coffee: refuse("coffee") },
};

/**
 * Splits `text` into YAML frontmatter and body with gray-matter (R5, W15). Pure (no file access).
 *
 * CRLF is normalised to LF first, so the body never carries `\r`. A file without a leading `---`
 * has empty data and the whole text as body. Options are always passed, which also keeps
 * gray-matter's content-keyed cache (shared mutable results) out of the way.
 * @returns the data (a plain object) and the untrimmed body, or a failure message that quotes the
 * YAML parser's reason (with line and column), says the frontmatter is not a mapping, or that it
 * expands to more than {@link MAX_FRONTMATTER_VALUES} values (an alias bomb). Never throws.
 */
export function splitFrontmatter(text: string): FrontmatterResult {
  const normalized = text.replace(/\r\n?/g, "\n");
  let parsed: { data: unknown; content: string };
  try {
    parsed = matter(normalized, OPTIONS);
  } catch (error: unknown) {
    if (error instanceof RefusedLanguage) return { ok: false, message: error.message };
    const reason = errorText(error);
    return { ok: false, message: `frontmatter is not valid YAML: ${reason}` };
  }
  const data = parsed.data;
  if (!isRecord(data)) {
    return {
      ok: false,
      message: `frontmatter must be a YAML mapping of fields (name, description, tools, model, verify, worktree, extensions), got ${describe(data)}`,
    };
  }
  const count = countValues(data, MAX_FRONTMATTER_VALUES);
  if (count > MAX_FRONTMATTER_VALUES) {
    return {
      ok: false,
      message:
        `frontmatter expands to more than ${MAX_FRONTMATTER_VALUES} values (YAML aliases such as *a repeat their anchor's whole value ` +
        "each time; nested ones multiply). An agent file's frontmatter is a few plain fields: write them out without anchors and aliases",
    };
  }
  return { ok: true, data: data as Record<string, unknown>, body: parsed.content };
}

/**
 * The most values (every mapping, list and scalar, counting each use of an alias again) accepted
 * in frontmatter. js-yaml resolves an alias to the anchor's value by reference, so a 500-byte
 * "billion laughs" file parses at once into a graph of 9^9 strings; what walks it later (the
 * schema check, JSON in messages) runs for seconds and dies with "Invalid string length". Real
 * frontmatter has a dozen values; 1000 leaves room for long tool and extension lists.
 */
export const MAX_FRONTMATTER_VALUES = 1000;

/**
 * Counts the values in `root` as a tree walk would see them (shared references counted at each
 * use), stopping as soon as the count passes `limit`, so the cost is O(limit) whatever the graph
 * (the stack never holds more than `limit` values).
 * Only arrays and plain objects are descended into. Iterative: deep nesting cannot overflow the stack.
 */
function countValues(root: unknown, limit: number): number {
  const stack: unknown[] = [root];
  let count = 1;
  for (let value = stack.pop(); value !== undefined || stack.length > 0; value = stack.pop()) {
    const children = Array.isArray(value) ? value : isPlainObject(value) ? Object.values(value) : [];
    count += children.length;
    if (count > limit) return count;
    stack.push(...children);
  }
  return count;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function describe(value: unknown): string {
  return Array.isArray(value) ? "a list" : `${typeof value} ${JSON.stringify(value)}`;
}
