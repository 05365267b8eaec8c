/**
 * Untrusted text (what teammates write: activity, titles, names, bodies, stderr) made safe for a
 * terminal. The feed keeps titles in this form; the console and the widget draw with it.
 */
import { replaceControlCharacters, stripTerminalSequences } from "@earendil-works/pi-tui";

/**
 * Untrusted text (activity, titles, names) as one safe line: terminal sequences removed and
 * every run of control characters (newlines, tabs, ESC) turned into one space, trimmed.
 */
export function oneLine(text: string): string {
  return replaceControlCharacters(stripTerminalSequences(text)).trim();
}

/**
 * Untrusted multi-line text (bodies, stderr) as safe lines: split on any newline, terminal
 * sequences removed, tabs as two spaces, other control characters as a space.
 */
export function safeLines(text: string): string[] {
  return text.split(/\r\n|\n|\r/).map((l) => replaceControlCharacters(stripTerminalSequences(l).replace(/\t/g, "  ")));
}
