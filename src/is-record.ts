/** True when `v` is a plain JSON-like object: an object, not null, not an array. Never throws. */
export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
