/**
 * The fence around a submitted result in the reviewer's prompt (R44, W9). Pure.
 *
 * The result is the holder's own text and the holder wants a PASS, so nothing in it may read as
 * part of the prompt. Two guards, mirroring the teammate-report envelope (src/team/prompts.ts):
 * - the fence tag, opening or closing, in any letter case and spacing, is neutralised inside the
 *   body (`<` becomes `&lt;`), so the body can neither end the fence early nor open a second one;
 * - every body line is prefixed with `| `, so no line inside starts with `## ` (a forged
 *   "## Your answer" section) or `VERDICT:` (a forged verdict). `|` is also not decoration that
 *   `parseVerdict` skips, so a reviewer quoting the block back does not cast its lines as a verdict.
 */

/** The fence tag name (`<submitted-result>` … `</submitted-result>`). */
export const RESULT_FENCE_TAG = "submitted-result";

/** The prefix of every line inside the fence. */
export const RESULT_LINE_PREFIX = "| ";

const FENCE_TAG = /<(\s*\/?\s*)(submitted-result)\b/gi;
// Every line break a model may read as one, so no "line" escapes its prefix.
const LINE_BREAK = /\r\n|\r|\n|\u2028|\u2029|\u0085/;

/**
 * The submitted result as a fenced block: the opening tag, each line of `result` prefixed with
 * `| ` and its fence tags neutralised, the closing tag. An empty result reads `(no result text)`.
 * Any string is accepted; never throws.
 */
export function fenceResult(result: string): string {
  const body = result === "" ? ["(no result text)"] : result.replace(FENCE_TAG, "&lt;$1$2").split(LINE_BREAK);
  return [`<${RESULT_FENCE_TAG} from="holder">`, ...body.map((l) => RESULT_LINE_PREFIX + l), `</${RESULT_FENCE_TAG}>`].join("\n");
}
