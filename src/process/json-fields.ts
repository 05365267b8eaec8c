/**
 * Field readers for parsing JSON records at the RPC boundary. Each reader returns the typed
 * field or throws `ShapeError` naming `<where>.<key>`, the expected shape and what was found;
 * parsers catch `ShapeError` and turn it into a reported violation, so it never reaches the app.
 */
import { isRecord } from "../is-record.ts";
import type { JsonObject, JsonValue } from "./rpc-types.ts";

/** A field of a known record has the wrong shape. Only thrown and caught inside src/process parsers. */
export class ShapeError extends Error {}

/** A JSON object (not null, not an array). */
export function isJsonObject(value: JsonValue | undefined): value is JsonObject {
  return isRecord(value);
}

/** "missing", "null", "array" or the `typeof` of a JSON value, for messages. */
export function describeJson(value: JsonValue | undefined): string {
  if (value === undefined) return "missing";
  if (value === null) return "null";
  return Array.isArray(value) ? "array" : typeof value;
}

function fail(where: string, key: string, expected: string, got: JsonValue | undefined): never {
  throw new ShapeError(`${where}.${key}: expected ${expected}, got ${describeJson(got)}`);
}

/** Required string. @throws ShapeError */
export function str(o: JsonObject, where: string, key: string): string {
  const v = o[key];
  return typeof v === "string" ? v : fail(where, key, "string", v);
}

/** Optional string (absent or null → undefined). @throws ShapeError */
export function optStr(o: JsonObject, where: string, key: string): string | undefined {
  const v = o[key];
  return v === undefined || v === null ? undefined : typeof v === "string" ? v : fail(where, key, "string", v);
}

/** String or explicit null (absent is an error). @throws ShapeError */
export function nullableStr(o: JsonObject, where: string, key: string): string | null {
  return o[key] === null ? null : str(o, where, key);
}

/** Required boolean. @throws ShapeError */
export function bool(o: JsonObject, where: string, key: string): boolean {
  const v = o[key];
  return typeof v === "boolean" ? v : fail(where, key, "boolean", v);
}

/** Required number. @throws ShapeError */
export function num(o: JsonObject, where: string, key: string): number {
  const v = o[key];
  return typeof v === "number" ? v : fail(where, key, "number", v);
}

/** Optional number (absent or null → undefined). @throws ShapeError */
export function optNum(o: JsonObject, where: string, key: string): number | undefined {
  const v = o[key];
  return v === undefined || v === null ? undefined : typeof v === "number" ? v : fail(where, key, "number", v);
}

/** Required object. @throws ShapeError */
export function obj(o: JsonObject, where: string, key: string): JsonObject {
  const v = o[key];
  return isJsonObject(v) ? v : fail(where, key, "object", v);
}

/** Required array of strings. @throws ShapeError */
export function strArray(o: JsonObject, where: string, key: string): string[] {
  const v = o[key];
  if (Array.isArray(v) && v.every((item) => typeof item === "string")) return v as string[];
  return fail(where, key, "string[]", v);
}

/** Optional array of strings. @throws ShapeError */
export function optStrArray(o: JsonObject, where: string, key: string): string[] | undefined {
  return o[key] === undefined || o[key] === null ? undefined : strArray(o, where, key);
}

/** Required array of objects. @throws ShapeError */
export function objArray(o: JsonObject, where: string, key: string): JsonObject[] {
  const v = o[key];
  if (Array.isArray(v) && v.every((item) => isJsonObject(item))) return v as JsonObject[];
  return fail(where, key, "object[]", v);
}

/** Any JSON value, absent → null (opaque payloads we pass along). */
export function json(o: JsonObject, key: string): JsonValue {
  return o[key] ?? null;
}
