/** The `tools` field after normalisation, with the items that needed repair. */
export interface NormalizedTools {
  tools: string[];
  /** Items written `-read` (a YAML list dash without its space) that were read as `read`. */
  repaired: string[];
}

/**
 * Normalises the `tools` field (R5, L12). Pure.
 *
 * Accepts a comma list (`read,bash`), a space-separated list, or a YAML list (flush-left or
 * indented; comments between items are dropped by the YAML parser). Items are split on commas and
 * whitespace, trimmed, empty ones dropped, duplicates removed, order kept.
 *
 * `-item` with no space after the dash is not a YAML list: YAML reads the lines as one string
 * `"-read -bash"`. Rather than collapsing that to a nonsense tool (the L12 bug class), each token's
 * leading dashes are stripped and the token is reported in `repaired` so the caller can warn.
 */
export function normalizeTools(value: string | readonly string[]): NormalizedTools {
  const raw = typeof value === "string" ? [value] : value;
  const tools: string[] = [];
  const repaired: string[] = [];
  for (const token of raw.flatMap((item) => item.split(/[\s,]+/))) {
    if (token === "") continue;
    let tool = token;
    if (tool.startsWith("-")) {
      tool = tool.replace(/^-+/, "");
      repaired.push(token);
      if (tool === "") continue;
    }
    if (!tools.includes(tool)) tools.push(tool);
  }
  return { tools, repaired };
}
