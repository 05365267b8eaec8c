/**
 * Pure parsing of the Linux /proc files the reaper reads (src/reap/reaper.ts). Their contents
 * come from processes a teammate controls, so every function takes bytes or text of any shape
 * and never throws on them.
 */

/** One environment entry, `key=value`, that marks every process a teammate or reviewer started. */
export interface Marker {
  key: string;
  value: string;
}

/**
 * The bytes of `marker` as an environment entry (`KEY=VALUE`, UTF-8).
 * @throws Error naming the marker when its key is empty or holds `=` or NUL, or its value is
 *   empty or holds NUL (no entry could match it exactly; a programming error).
 */
export function markerEntry(marker: Marker): Buffer {
  if (!marker.key || /[=\0]/.test(marker.key) || !marker.value || marker.value.includes("\0")) {
    throw new Error(`reaper: marker ${JSON.stringify(marker)} is not an environment entry; the key needs no "=" or NUL and the value must be non-empty without NUL`);
  }
  return Buffer.from(`${marker.key}=${marker.value}`, "utf8");
}

/**
 * True when one of the NUL-separated entries of `environ` (the bytes of /proc/<pid>/environ, of
 * any content) equals one of `entries` byte for byte. A match must start at the beginning or
 * after a NUL and end at a NUL or at the end of the data; with `truncated` the data was cut at a
 * size bound, so its last entry is incomplete and is not taken as ending there. Work is linear in
 * the size of `environ` per entry.
 */
export function environHas(environ: Uint8Array, entries: readonly Uint8Array[], truncated = false): boolean {
  const data = Buffer.from(environ.buffer, environ.byteOffset, environ.byteLength);
  for (const entry of entries) {
    if (entry.length === 0) continue;
    for (let at = data.indexOf(entry); at !== -1; at = data.indexOf(entry, at + 1)) {
      const end = at + entry.length;
      const starts = at === 0 || data[at - 1] === 0;
      const ends = end < data.length ? data[end] === 0 : !truncated;
      if (starts && ends) return true;
    }
  }
  return false;
}

/**
 * The parent pid from the text of /proc/<pid>/stat (`pid (comm) state ppid ...`). The command
 * name may hold spaces and parentheses, so the fields are read after the last `)`. Undefined
 * when the text is not of that shape.
 */
export function statParent(stat: string): number | undefined {
  const close = stat.lastIndexOf(")");
  if (close === -1) return undefined;
  const fields = stat.slice(close + 1).trim().split(/\s+/);
  const ppid = Number(fields[1]);
  return Number.isSafeInteger(ppid) && ppid >= 0 ? ppid : undefined;
}

/** The pid a /proc directory entry names (`"1234"`), or undefined for any other name. */
export function procPid(name: string): number | undefined {
  if (!/^[1-9][0-9]{0,9}$/.test(name)) return undefined;
  const pid = Number(name);
  return pid <= 0x7fffffff ? pid : undefined;
}
