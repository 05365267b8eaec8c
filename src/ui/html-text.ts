import escapeHtml from "escape-html";

/** Control characters other than tab and line ends: dropped from exported text (as on screen). */
const CONTROL = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/g;

/**
 * `text` as HTML text or attribute value (escape-html: `&<>"'`), without control characters
 * other than tab and line ends: a teammate wrote much of what the run export shows (issue 20).
 */
export function html(text: string): string {
  return escapeHtml(text.replace(CONTROL, ""));
}
