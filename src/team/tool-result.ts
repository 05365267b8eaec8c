/** A tool result with one text block for the model and `details` for renderers and tests. */
export function textResult<D>(text: string, details: D): { content: { type: "text"; text: string }[]; details: D } {
  return { content: [{ type: "text", text }], details };
}
