/** CPU time of other processes from /proc (Linux), at microsecond precision where the kernel has it. */
import { readdir, readFile } from "node:fs/promises";
import { processCpuMs } from "../route/proc.ts";

/**
 * CPU ms used so far by every living thread of `pid`: the sum of `se.sum_exec_runtime` in
 * /proc/<pid>/task/<tid>/sched (µs precision), or utime+stime from /proc/<pid>/stat (10 ms
 * ticks) where the kernel has no sched file. Threads that already exited are not counted, which
 * matters only for a window spanning a start-up (pi's start-up threads live on).
 * @throws when the process is gone.
 */
export async function cpuMs(pid: number): Promise<number> {
  let sum = 0;
  let found = false;
  for (const tid of await readdir(`/proc/${pid}/task`)) {
    const text = await readFile(`/proc/${pid}/task/${tid}/sched`, "utf8").catch(() => "");
    const m = /se\.sum_exec_runtime\s*:\s*([\d.]+)/.exec(text);
    if (!m) continue;
    found = true;
    sum += Number(m[1]);
  }
  return found ? sum : processCpuMs(pid);
}
