/**
 * The end of an incarnation in the lifecycle (R20, R21, R30, R56, L22), and the resources its
 * spawn acquires on the way in: each is recorded in `holdings` the moment it exists, and every
 * end (a close, a spawn given up) releases exactly what is recorded, through one `release`
 * effect, then answers `captured`. Pure; lifecycle.ts routes the events here.
 */
import type { Holdings, Life, Step, TeammateEffect, TeammateEvent, TeammateFacts, TeammateState } from "./lifecycle-types.ts";
import type { HeldClaim } from "./prompts.ts";

type Living = Extract<TeammateState, { life: Life }>;

/** `acquired`: records a resource in any phase (a child started after a stop was asked for is released by `spawn_failed`). */
export function onAcquired(s: TeammateState, e: Extract<TeammateEvent, { type: "acquired" }>): Step {
  const { launchDirs, ...rest } = e.holdings;
  const merged = launchDirs ? [...s.holdings.launchDirs, ...launchDirs.filter((d) => !s.holdings.launchDirs.includes(d))] : s.holdings.launchDirs;
  const state = { ...s, holdings: { ...s.holdings, ...rest, launchDirs: merged } } as TeammateState;
  return { state, effects: [] };
}

/** What to release once the child is gone: `how` its worktree goes (kept, or removed after a failed spawn). */
function release(h: Holdings, how: "capture" | "discard", stop: boolean): TeammateEffect {
  return {
    type: "release",
    stop,
    reap: h.proc !== undefined,
    worktree: h.worktree ? { wt: h.worktree, how } : undefined,
    launchDirs: h.launchDirs,
  };
}

/** Claims recorded at the first going-away event only: the board released them then. */
function withClaims(h: Holdings, claims: readonly HeldClaim[] | undefined): Holdings {
  return claims === undefined ? h : { ...h, claimsAtStop: claims };
}

/** `stop_requested`: the roster says `stopped` at once, so no peer mails a teammate that is going away. */
export function onStopRequested(s: Living, claims: readonly HeldClaim[] | undefined): Step {
  if (s.phase === "stopping") return { state: s, effects: [] };
  const state: TeammateState = { phase: "stopping", life: s.life, holdings: withClaims(s.holdings, claims) };
  return { state, effects: [{ type: "board_gone", reason: "shutdown" }, { type: "write_roster" }, { type: "stop_process" }] };
}

/** `closed` (L21): a requested stop or a crash (R56); its worktree is kept (captured). */
export function onClosed(s: Living, e: Extract<TeammateEvent, { type: "closed" }>, facts: TeammateFacts): Step {
  const requested = s.phase === "stopping";
  const undelivered = s.life.mail.length + (s.life.sending?.mail.length ?? 0);
  const holdings = requested ? s.holdings : withClaims(s.holdings, e.claims);
  const state: TeammateState = { phase: "capturing", exit: e.exit, requested, undelivered, holdings };
  const effects: TeammateEffect[] = [{ type: "write_roster" }];
  // One end-of-life line per incarnation (R55): a shutdown after its finish adds none.
  if (!s.life.finished) effects.push({ type: "lifeline", text: `Teammate @${facts.name} ${requested ? "shut down" : "crashed"}.`, ok: requested });
  if (!requested) {
    const how = e.exit.signal ? `signal ${e.exit.signal}` : `exit code ${e.exit.code}`;
    effects.unshift({ type: "board_gone", reason: "crash" });
    effects.push({ type: "crash_event", how, undelivered, stderrTail: e.stderrTail, claims: holdings.claimsAtStop });
  }
  effects.push(release(holdings, "capture", false));
  return { state, effects };
}

/**
 * `spawn_failed`: the spawn gave up before its child was watched (a refused launcher, worktree or
 * role file, a child that could not start, a stop while starting). As a requested stop and its
 * close, then the release of exactly what was acquired: its child stopped and reaped if it was
 * started, its new worktree removed (it holds no work), its launch dirs removed.
 */
export function onSpawnFailed(s: Living, facts: TeammateFacts): Step {
  const stopping = onStopRequested(s, undefined);
  const closed = onClosed(stopping.state as Living, { type: "closed", exit: { code: null, signal: null }, stderrTail: "" }, facts);
  const effects = [...stopping.effects.filter((e) => e.type !== "stop_process"), ...closed.effects.filter((e) => e.type !== "release")];
  return { state: closed.state, effects: [...effects, release(closed.state.holdings, "discard", s.holdings.proc !== undefined)] };
}

/** `captured`: all is released; `stopped` for good, with what a successor is told (R16, R20). */
export function onCaptured(s: Extract<TeammateState, { phase: "capturing" }>, e: Extract<TeammateEvent, { type: "captured" }>): Step {
  const holdings: Holdings = { ...s.holdings, launchDirs: [], ...(e.kept ? { kept: e.kept } : {}), ...(e.leftAt ? { leftAt: e.leftAt } : {}) };
  return { state: { ...s, phase: "stopped", holdings }, effects: [] };
}
