/**
 * Strict JSONL framing for the Pi RPC channel (style practice 5).
 *
 * Records are separated by LF only. A trailing CR is stripped so CRLF input is accepted. Any other
 * Unicode separator (U+2028, U+2029, U+0085) is payload: it is legal inside JSON strings, which is
 * why this module intentionally does not use Node `readline` (it splits on those too) and never
 * decodes a chunk on its own with `toString()` (that corrupts a multi-byte character split across
 * two chunks). Bytes go through one `StringDecoder` per stream.
 */
import { StringDecoder } from "node:string_decoder";

/** The part of a readable stream the reader needs: `data` and `end` listeners. */
export interface JsonlSource {
  on(event: "data", listener: (chunk: Buffer | string) => void): unknown;
  on(event: "end", listener: () => void): unknown;
  off(event: "data", listener: (chunk: Buffer | string) => void): unknown;
  off(event: "end", listener: () => void): unknown;
}

/**
 * Attach an LF-only line reader to `stream`.
 *
 * `onLine` receives every complete record without its terminator (and without a trailing CR),
 * in order, synchronously from the stream's `data` event. A last record without a final LF is
 * delivered on `end`. Empty records are delivered as `""` (the caller decides what they mean).
 *
 * Contract: `onLine` must not throw; an exception escapes into the stream's `data` emit.
 * The reader does not pause, resume, end or destroy the stream. Call the returned function to
 * detach: afterwards no further line is delivered, and a partial record still buffered is dropped.
 * Detaching twice is harmless.
 */
export function attachJsonlReader(stream: JsonlSource, onLine: (line: string) => void): () => void {
  const decoder = new StringDecoder("utf8");
  let buffer = "";
  let attached = true;

  const emit = (line: string): void => {
    onLine(line.endsWith("\r") ? line.slice(0, -1) : line);
  };

  const consume = (text: string): void => {
    if (text.length === 0) return;
    buffer += text;
    // Scan with a moving start index and slice the remainder once: a chunk holding many records
    // costs O(chunk), not O(records × chunk).
    let start = 0;
    let newline = buffer.indexOf("\n", start);
    while (newline !== -1 && attached) {
      emit(buffer.slice(start, newline));
      start = newline + 1;
      newline = buffer.indexOf("\n", start);
    }
    buffer = start === 0 ? buffer : buffer.slice(start);
  };

  const onData = (chunk: Buffer | string): void => {
    consume(typeof chunk === "string" ? chunk : decoder.write(chunk));
  };

  const onEnd = (): void => {
    consume(decoder.end());
    if (buffer.length > 0 && attached) {
      const rest = buffer;
      buffer = "";
      emit(rest);
    }
  };

  stream.on("data", onData);
  stream.on("end", onEnd);
  return () => {
    if (!attached) return;
    attached = false;
    buffer = "";
    stream.off("data", onData);
    stream.off("end", onEnd);
  };
}

/**
 * Serialize one JSONL record: `JSON.stringify(value)` plus LF.
 *
 * `JSON.stringify` escapes LF and CR inside strings, so the result holds exactly one LF, at the end.
 * U+2028/U+2029 stay raw inside strings (legal JSON; readers must split on LF only).
 * @throws TypeError when `value` has no JSON form (`undefined`, a function, a symbol), and the
 *   usual `JSON.stringify` errors (cycles, BigInt).
 */
export function serializeJsonLine(value: unknown): string {
  const json = JSON.stringify(value);
  if (json === undefined) {
    throw new TypeError(`serializeJsonLine: value of type ${typeof value} has no JSON form; pass an object.`);
  }
  return `${json}\n`;
}
