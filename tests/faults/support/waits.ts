/**
 * Waits of the fault suite that have no event to wait on: a quiet team (no model call for a
 * while and every teammate idle in the roster) and a process's memory from /proc. They poll;
 * none of them is an assertion about time.
 */
import { readFileSync } from "node:fs";
import type { ScriptedModel } from "../../support/scripted-model.ts";
import { readRoster } from "../../support/team.ts";

/**
 * Resolves once no model request has arrived for `quietMs` and every living teammate in the
 * roster is idle (checked every 100 ms).
 * @throws Error after `timeoutMs` without such a moment.
 */
export async function waitQuiet(model: ScriptedModel, runtimeDir: string, quietMs = 1500, timeoutMs = 120_000): Promise<void> {
  const t0 = Date.now();
  for (;;) {
    const last = model.calls.at(-1)?.at ?? 0;
    const roster = await readRoster(runtimeDir).catch(() => undefined);
    const idle = roster?.teammates.every((t) => t.status === "idle" || t.status === "stopped") ?? true;
    if (idle && Date.now() - last >= quietMs) return;
    if (Date.now() - t0 > timeoutMs) {
      const busy = roster?.teammates.filter((t) => t.status !== "idle" && t.status !== "stopped").map((t) => `${t.name} ${t.status}`) ?? ["roster unreadable"];
      throw new Error(`the team did not go quiet within ${timeoutMs} ms (${model.calls.length} model calls, the last ${Math.round((Date.now() - last) / 1000)} s ago; not idle: ${busy.join(", ") || "none"})`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The resident set size of process `pid` in MiB (VmRSS from /proc), or undefined when gone. */
export function rssMiB(pid: number): number | undefined {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Math.round(Number(m[1]) / 102.4) / 10 : undefined;
  } catch {
    return undefined;
  }
}

/** Polls `cond` every 50 ms until it holds. @throws Error naming `what` after `timeoutMs`. */
export async function pollUntil(what: string, cond: () => boolean | Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const t0 = Date.now();
  while (!(await cond())) {
    if (Date.now() - t0 > timeoutMs) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
