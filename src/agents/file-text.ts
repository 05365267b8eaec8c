/**
 * The largest agent file read, in bytes. A role prompt is a few KB of instructions; every role's
 * prompt goes into its teammate's system prompt on every turn, so a file past 64 KB (about 16k
 * tokens) is not a role but a mistake or an attack, and refusing it also bounds what the YAML
 * parser and the validators are given.
 */
export const MAX_AGENT_FILE_BYTES = 64 * 1024;

/** The text of an agent file, or why the bytes are not one. */
export type AgentFileText = { ok: true; text: string } | { ok: false; message: string };

const UTF8 = new TextDecoder("utf-8", { fatal: true });

/**
 * Decodes an agent file's bytes (R5, W15). Pure. Refuses a file over {@link MAX_AGENT_FILE_BYTES},
 * one holding a NUL byte, and one that is not valid UTF-8: each is a binary or hostile file, not
 * Markdown. The message says what is wrong and what is accepted (the caller prefixes the path).
 * A UTF-8 BOM is kept (gray-matter strips it). Never throws.
 */
export function decodeAgentFile(bytes: Uint8Array): AgentFileText {
  if (bytes.length > MAX_AGENT_FILE_BYTES) return { ok: false, message: tooLarge(bytes.length) };
  if (bytes.includes(0)) return { ok: false, message: "is a binary file (it holds a NUL byte); an agent file is UTF-8 Markdown text" };
  try {
    return { ok: true, text: UTF8.decode(bytes) };
  } catch {
    return { ok: false, message: "is not valid UTF-8 text (a binary file?); an agent file is UTF-8 Markdown text" };
  }
}

/** The refusal for a file of `size` bytes (also used before reading, from its size on disk). */
export function tooLarge(size: number): string {
  return `is ${size} bytes, over the ${MAX_AGENT_FILE_BYTES}-byte limit for an agent file; a role prompt is a few KB, put long references in files the role reads`;
}
