import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { attachJsonlReader, serializeJsonLine } from "../../../src/process/index.ts";

/** Feed `chunks` into a fresh stream, end it, and return every line the reader delivered. */
function readAll(chunks: readonly (Buffer | string)[]): string[] {
  const stream = new PassThrough();
  const lines: string[] = [];
  attachJsonlReader(stream, (line) => lines.push(line));
  for (const chunk of chunks) stream.emit("data", chunk);
  stream.emit("end");
  return lines;
}

/** Split `buffer` into pieces of pseudo-random sizes 1..maxSize (deterministic seed). */
function randomChunks(buffer: Buffer, seed: number, maxSize: number): Buffer[] {
  let state = seed;
  const next = (): number => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state;
  };
  const chunks: Buffer[] = [];
  for (let i = 0; i < buffer.length; ) {
    const size = 1 + (next() % maxSize);
    chunks.push(buffer.subarray(i, i + size));
    i += size;
  }
  return chunks;
}

const TRICKY_RECORDS = [
  { type: "message_update", text: "line\u2028separator and paragraph\u2029inside" },
  { type: "x", text: "multi-byte: é 日本語 🌍👩‍👩‍👧 \u0085 NEL" },
  { type: "y", text: "escaped newline \n and CR \r and tab \t" },
  { type: "z", nested: { list: [1, "two", null, { deep: "🦀" }] } },
];

describe("attachJsonlReader", () => {
  it("keeps U+2028 and U+2029 inside a record (readline would split there)", () => {
    const record = { type: "t", text: "a\u2028b\u2029c" };
    const lines = readAll([serializeJsonLine(record)]);
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] ?? "")).toEqual(record);
  });

  it("strips a trailing CR of CRLF records but keeps CRs elsewhere", () => {
    expect(readAll(['{"a":1}\r\n{"b":"x\\r"}\r\n'])).toEqual(['{"a":1}', '{"b":"x\\r"}']);
    expect(readAll(["a\rb\n"])).toEqual(["a\rb"]);
  });

  it("flushes the last record on end when it has no final LF", () => {
    expect(readAll(['{"a":1}\n{"b":2}'])).toEqual(['{"a":1}', '{"b":2}']);
    expect(readAll(['{"a":1}\r'])).toEqual(['{"a":1}']);
    expect(readAll([])).toEqual([]);
  });

  it("delivers empty records between consecutive LFs", () => {
    expect(readAll(["a\n\nb\n"])).toEqual(["a", "", "b"]);
  });

  it("reassembles a multi-byte character split across chunks", () => {
    const bytes = Buffer.from(`${JSON.stringify({ s: "🌍é日" })}\n`, "utf8");
    const globe = bytes.indexOf(0xf0); // first byte of the 4-byte emoji
    const lines = readAll([bytes.subarray(0, globe + 1), bytes.subarray(globe + 1, globe + 3), bytes.subarray(globe + 3)]);
    expect(lines.map((l) => JSON.parse(l))).toEqual([{ s: "🌍é日" }]);
  });

  it("decodes a dangling partial character at end as U+FFFD instead of dropping the record", () => {
    const lines = readAll([Buffer.from([0x61, 0xe6, 0x97])]); // "a" + 2 of 3 bytes of 日
    expect(lines).toEqual(["a\ufffd"]);
  });

  it("survives random chunk sizes byte for byte (1..7 and 1..64 bytes, many seeds)", () => {
    const text = TRICKY_RECORDS.map((r) => serializeJsonLine(r)).join("") + TRICKY_RECORDS.map((r) => `${JSON.stringify(r)}\r\n`).join("");
    const bytes = Buffer.from(text, "utf8");
    const expected = [...TRICKY_RECORDS, ...TRICKY_RECORDS];
    for (let seed = 1; seed <= 200; seed++) {
      for (const maxSize of [7, 64]) {
        const lines = readAll(randomChunks(bytes, seed, maxSize));
        expect(lines.map((l) => JSON.parse(l))).toEqual(expected);
      }
    }
  });

  it("accepts string chunks as well as buffers", () => {
    expect(readAll(['{"a":', '1}\n{"b"', ":2}\n"])).toEqual(['{"a":1}', '{"b":2}']);
  });

  it("stops delivering after detach, also mid-chunk, and detaching twice is harmless", () => {
    const stream = new PassThrough();
    const lines: string[] = [];
    const detach = attachJsonlReader(stream, (line) => {
      lines.push(line);
      if (line === "2") detach();
    });
    stream.emit("data", "1\n2\n3\n");
    stream.emit("data", "4\n");
    stream.emit("end");
    detach();
    expect(lines).toEqual(["1", "2"]);
    expect(stream.listenerCount("data")).toBe(0);
    expect(stream.listenerCount("end")).toBe(0);
  });

  it("reads a real piped stream end to end", async () => {
    const stream = new PassThrough();
    const lines: string[] = [];
    attachJsonlReader(stream, (line) => lines.push(line));
    const ended = new Promise((resolve) => stream.on("end", resolve));
    const bytes = Buffer.from(TRICKY_RECORDS.map((r) => serializeJsonLine(r)).join(""), "utf8");
    for (const chunk of randomChunks(bytes, 42, 5)) stream.write(chunk);
    stream.end();
    await ended;
    expect(lines.map((l) => JSON.parse(l))).toEqual(TRICKY_RECORDS);
  });
});

describe("serializeJsonLine", () => {
  it("writes exactly one LF, at the end, and round-trips hostile strings", () => {
    for (const record of TRICKY_RECORDS) {
      const line = serializeJsonLine(record);
      expect(line.endsWith("\n")).toBe(true);
      expect(line.indexOf("\n")).toBe(line.length - 1);
      expect(JSON.parse(line)).toEqual(record);
    }
  });

  it("throws a TypeError for values without a JSON form", () => {
    expect(() => serializeJsonLine(undefined)).toThrow(TypeError);
    expect(() => serializeJsonLine(() => 1)).toThrow(/no JSON form/);
  });
});
