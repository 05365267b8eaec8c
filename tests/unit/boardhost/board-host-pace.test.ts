/**
 * BoardHost's notice pace timer (R54): it re-plans only when a paced-out teammate may hear
 * again. Once a teammate's pace has run out and it heard everything claimable, nothing is left
 * to wait for, so no timer may stay armed (a timer that re-arms at once would spin the leader).
 */
import { TeamBus } from "../../../src/team/bus.ts";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { BoardHost } from "../../../src/boardhost/board-host.ts";
import type { BoardMate } from "../../../src/boardhost/board-host-types.ts";
import { SpawnKeys } from "../../../src/mail/index.ts";
import { boardLayoutAt } from "../../../src/store/index.ts";

const MIN = 60_000;

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "board-host-pace-"));
  await mkdir(join(dir, "board"));
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
});
afterEach(async () => {
  vi.useRealTimers();
  await rm(dir, { recursive: true, force: true });
});

function host(paceMs: number, clock: { now: number }, counter: { plans: number }, told: string[]) {
  const alice: BoardMate = { name: "alice", spawnId: "alice-1", idle: true, hasAssignment: false, assignmentResources: undefined, roleVerify: undefined };
  const bus = new TeamBus();
  bus.on("tell", ({ text }) => told.push(text));
  return new BoardHost({
    bus,
    layout: boardLayoutAt(join(dir, "board")),
    keys: new SpawnKeys(),
    answer: () => undefined, // no intent files here
    cwd: dir,
    piCli: "pi-not-used",
    env: {},
    mates: () => {
      counter.plans += 1;
      return [alice];
    },
    teamModel: () => undefined,
    note: () => undefined,
    paceMs,
    now: () => clock.now,
  });
}

/** Advances the fake clock and timers together, in steps, and returns how many plans ran. */
function advance(clock: { now: number }, counter: { plans: number }, ms: number, step = 1000): number {
  const before = counter.plans;
  for (let t = 0; t < ms; t += step) {
    clock.now += step;
    vi.advanceTimersByTime(step);
  }
  return counter.plans - before;
}

describe("BoardHost notice pace timer", () => {
  it.each([0, 5 * MIN])("pace %i ms: a teammate that heard everything is not re-planned in a loop", async (paceMs) => {
    const clock = { now: 1_000_000 };
    const counter = { plans: 0 };
    const told: string[] = [];
    const b = host(paceMs, clock, counter, told);
    b.create({ subject: "Only task" }, "test board");
    expect(told).toHaveLength(1); // the synchronous notice
    // Well past the pace: at most a couple of re-plans, never one per timer tick.
    const plans = advance(clock, counter, paceMs + 2 * MIN);
    expect(plans).toBeLessThanOrEqual(2);
    expect(told).toHaveLength(1); // declined: it never hears about the task again
    vi.useRealTimers();
    await b.close();
  });
});
