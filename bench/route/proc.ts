/** CPU time of other processes, from /proc (Linux). */
import { execFileSync } from "node:child_process";
import { readFile } from "node:fs/promises";

const CLOCK_TICKS = (() => {
  try {
    return Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/**
 * utime + stime of process `pid` so far, in ms (fields 14 and 15 of /proc/<pid>/stat; the
 * resolution is one clock tick, 10 ms at CLK_TCK 100).
 * @throws when the process is gone or /proc is missing.
 */
export async function processCpuMs(pid: number): Promise<number> {
  const text = await readFile(`/proc/${pid}/stat`, "utf8");
  const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
  return ((Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS) * 1000;
}
