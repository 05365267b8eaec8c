import { Type, type Static } from "typebox";
import { readValidated, type ReadResult } from "../store/snapshot.ts";
import { checkValue, type Checked } from "../store/validate.ts";
import { EpochMsSchema, SpawnIdSchema, TeammateNameSchema } from "./envelope.ts";

/** Version of `roster.json`, written as `v` (references/runtime-state.md). */
export const ROSTER_FORMAT_VERSION = 1;

/** Lifecycle of a teammate as workers see it. Only `stopped` teammates are not alive. */
export const RosterStatusSchema = Type.Union([
  Type.Literal("starting"),
  Type.Literal("working"),
  Type.Literal("idle"),
  Type.Literal("stopped"),
]);
export type RosterStatus = Static<typeof RosterStatusSchema>;

/** One teammate in the roster: its current incarnation. */
export const RosterEntrySchema = Type.Object({
  name: TeammateNameSchema,
  /** Name of the agent definition (role) it was spawned from. */
  agent: Type.String({ minLength: 1 }),
  spawnId: SpawnIdSchema,
  status: RosterStatusSchema,
  /** OS pid of the child process, when one is running. */
  pid: Type.Optional(Type.Integer({ minimum: 1 })),
  /** Effective tool grant (role tools plus capability tools), shown before the first wake (L5). */
  tools: Type.Array(Type.String()),
  /** Its model and where it came from (R6), e.g. `anthropic/claude-sonnet-4 (pin)` or `Pi default (pi-default)`. */
  model: Type.Optional(Type.String()),
  /**
   * Resource tags this teammate holds now: its direct assignment's resources (no `taskId`) and
   * the resources of the board tasks it has claimed (with the task id). Absent means none. Read by
   * shared-tree teammates to guard their edits (src/worker/edit-guards.ts).
   */
  holds: Type.Optional(Type.Array(Type.Object({ tag: Type.String(), taskId: Type.Optional(Type.String()) }))),
});
export type RosterEntry = Static<typeof RosterEntrySchema>;

/**
 * A pair of teammates whose peer mail the leader refuses now (W19, src/team/peer-pairs.ts): it
 * reached the peer-pair cap. Each member's send_message refuses mail to the other up front.
 */
export const RosterPeerCutSchema = Type.Object({
  between: Type.Array(TeammateNameSchema, { minItems: 2, maxItems: 2 }),
  /** Messages they exchanged since the leader was last involved with either: the cap. */
  count: Type.Integer({ minimum: 0 }),
});
export type RosterPeerCut = Static<typeof RosterPeerCutSchema>;

/**
 * `roster.json` in the runtime dir: written only by the leader (SnapshotWriter, atomic, only
 * when changed), read by workers to find living peers (R46, W11). `updatedAt` (ms since epoch)
 * is the time of the last roster change, not of the write, so an unchanged roster serializes
 * identically and is not rewritten (L24).
 */
export const RosterFileSchema = Type.Object({
  v: Type.Literal(ROSTER_FORMAT_VERSION),
  updatedAt: EpochMsSchema,
  teammates: Type.Array(RosterEntrySchema),
  /** Pairs cut by the peer-pair cap (W19). Absent means none; optional, so still version 1. */
  peerCuts: Type.Optional(Type.Array(RosterPeerCutSchema)),
});
export type RosterFile = Static<typeof RosterFileSchema>;

/** Parses a roster from untrusted JSON. Never throws; the message names field, value and expectation. */
export function parseRoster(value: unknown): Checked<RosterFile> {
  return checkValue(RosterFileSchema, value);
}

/**
 * Reads and validates `roster.json`. Never throws for bad content; see `readValidated` for the
 * `missing` / `unreadable` / `invalid` reasons (a worker started before the first roster write
 * sees `missing`).
 */
export function readRosterFile(path: string): Promise<ReadResult<RosterFile>> {
  return readValidated(path, RosterFileSchema, "roster");
}

/** Names of living teammates (status not `stopped`), in roster order, each once. */
export function livingNames(roster: RosterFile): string[] {
  const names = new Set<string>();
  for (const entry of roster.teammates) if (entry.status !== "stopped") names.add(entry.name);
  return [...names];
}
