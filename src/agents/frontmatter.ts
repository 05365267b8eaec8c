import matter from "gray-matter";

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
 * YAML parser's reason (with line and column) or says the frontmatter is not a mapping. Never throws.
 */
export function splitFrontmatter(text: string): FrontmatterResult {
  const normalized = text.replace(/\r\n?/g, "\n");
  let parsed: { data: unknown; content: string };
  try {
    parsed = matter(normalized, OPTIONS);
  } catch (error: unknown) {
    if (error instanceof RefusedLanguage) return { ok: false, message: error.message };
    const reason = error instanceof Error ? error.message : String(error);
    return { ok: false, message: `frontmatter is not valid YAML: ${reason}` };
  }
  const data = parsed.data;
  if (typeof data !== "object" || data === null || Array.isArray(data)) {
    return {
      ok: false,
      message: `frontmatter must be a YAML mapping of fields (name, description, tools, model, verify, worktree, extensions), got ${describe(data)}`,
    };
  }
  return { ok: true, data: data as Record<string, unknown>, body: parsed.content };
}

function describe(value: unknown): string {
  return Array.isArray(value) ? "a list" : `${typeof value} ${JSON.stringify(value)}`;
}
