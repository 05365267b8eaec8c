/**
 * The launcher benchmark's two measures, in one real leader (bench/leader/*.ts does the timing):
 *
 * - spawn: the leader model's `teammate_spawn` reply with a kickoff → the teammate's first model
 *   request (bench/leader/spawn.ts `timeTeammate`), per launcher, beside a bare pi's start →
 *   first request (`timeBare`); the order of the starts rotates each round, and each teammate
 *   is shut down before the next start.
 * - peer mail: per launcher, a teammate of it and a local teammate, both idle; the launcher's
 *   one sends `count` paced peer messages to the local one, then the local one as many back
 *   (bench/leader/mail.ts `peerRun`): the sender's `send_message` reply → the recipient's model
 *   request. Both are woken once by the leader before, so neither direction has a process's very
 *   first model request in it.
 */
import { peerRun, shutdown, spawnIdle } from "../leader/mail.ts";
import { timeBare, timeTeammate } from "../leader/spawn.ts";
import type { World } from "../leader/world.ts";
import type { Launcher } from "./setup.ts";

/** Spawn wall times (ms) in round order: the bare pi's and each launcher's (by launcher name). */
export interface LaunchSpawnTimes {
  bare: number[];
  byLauncher: Map<string, number[]>;
}

/** Peer-mail latencies (ms) in send order, per launcher: from its teammate, and to it. */
export interface LaunchMailTimes {
  launcher: string;
  fromLauncher: number[];
  toLauncher: number[];
}

/** The bare pi, or one launcher, in a round's start order. */
type Start = { bare: true } | { bare: false; l: Launcher };

/**
 * `rounds` rounds of one start of each (a bare pi and every launcher; each launcher's warm-up
 * was its check spawn, bare's is one discarded start here), the order shifted by one each round.
 */
export async function measureLaunchSpawn(w: World, launchers: readonly Launcher[], rounds: number): Promise<LaunchSpawnTimes> {
  await timeBare(w, "bare-warm");
  const out: LaunchSpawnTimes = { bare: [], byLauncher: new Map(launchers.map((l) => [l.name, []])) };
  const starts: Start[] = [{ bare: true }, ...launchers.map((l): Start => ({ bare: false, l }))];
  for (let i = 0; i < rounds; i++) {
    for (let k = 0; k < starts.length; k++) {
      const s = starts[(i + k) % starts.length]!;
      if (s.bare) out.bare.push((await timeBare(w, `bare-${i}`)).wallMs);
      else out.byLauncher.get(s.l.name)!.push((await timeTeammate(w, `sp-${s.l.tag}-${i}`, s.l.role)).wallMs);
    }
  }
  return out;
}

/** Both directions of `count` paced peer messages between a teammate of each launcher and a local one. */
export async function measureLaunchMail(w: World, launchers: readonly Launcher[], count: number, gapMs: number): Promise<LaunchMailTimes[]> {
  const out: LaunchMailTimes[] = [];
  for (const l of launchers) {
    const [far, near] = [`pm-${l.tag}`, `pm-${l.tag}-peer`];
    await spawnIdle(w, [far, near], { [far]: l.role });
    await w.command([far, near].map((to) => ({ name: "send_message", arguments: { to, message: "Warm-up: answer ok." } })));
    await w.quiet();
    const fromLauncher = await peerRun(w, far, near, count, gapMs);
    const toLauncher = await peerRun(w, near, far, count, gapMs);
    await shutdown(w, [far, near]);
    out.push({ launcher: l.name, fromLauncher, toLauncher });
  }
  return out;
}
