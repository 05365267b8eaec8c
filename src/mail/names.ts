/**
 * Teammate name rules (R22, W13). Pure: no I/O, no clock.
 *
 * A teammate name becomes a file name (outbox, inbox, log) and a `from`/`to` value in mail, so it
 * is restricted to a path-safe alphabet and may not collide with the routing words the harness
 * itself uses.
 */
import { LEADER_NAME, TASK_BOARD, USER_NAME } from "../mail/envelope.ts";

/** Longest accepted teammate name, in characters (R22). */
export const TEAMMATE_NAME_MAX_LENGTH = 64;

/**
 * The shape shared by teammate names and agent definition names: a letter, then letters, digits,
 * `.`, `_` or `-`. Length is checked separately so the message can say which rule failed.
 */
export const NAME_CHARS_PATTERN = /^[A-Za-z][A-Za-z0-9._-]*$/;

/**
 * Names a teammate may never take, compared case-insensitively: they are `from`/`to` values of the
 * harness and the board (W13) or broadcast words.
 */
export const RESERVED_TEAMMATE_NAMES: readonly string[] = [LEADER_NAME, USER_NAME, "harness", "all", "*", TASK_BOARD];

/** Why a teammate name was refused. */
export type TeammateNameProblem = "empty" | "too_long" | "reserved" | "bad_start" | "bad_chars" | "taken";

/** Outcome of {@link validateTeammateName}; a refusal carries a message fit for the leader model. */
export type TeammateNameResult = { ok: true } | { ok: false; reason: TeammateNameProblem; message: string };

const ACCEPTED =
  `an ASCII letter (A-Z, a-z) first, then ASCII letters, digits, ".", "_" or "-", at most ${TEAMMATE_NAME_MAX_LENGTH} characters`;

/**
 * Checks a requested teammate name (R22, W13).
 *
 * Rules, in the order they are checked: not empty; at most 64 characters; not reserved
 * (`leader`, `harness`, `all`, `*`, `task-board`, any case); starts with an ASCII letter; only
 * letters, digits, `.`, `_`, `-`; not equal, ignoring case, to a name in `livingNames`.
 * Stopped teammates must not be passed in `livingNames`: their names may be reused (the new process
 * gets a new spawn id).
 *
 * @param name the requested name, exactly as the caller gave it (no trimming is done).
 * @param livingNames names of teammates that are alive now (starting, idle, working, stopping).
 * @returns `{ ok: true }` or a reason with a message naming the value and what is accepted. Never throws.
 */
export function validateTeammateName(name: string, livingNames: Iterable<string>): TeammateNameResult {
  const shown = JSON.stringify(name);
  if (name.length === 0) {
    return refuse("empty", `A teammate name is required; accepted: ${ACCEPTED}.`);
  }
  if (name.length > TEAMMATE_NAME_MAX_LENGTH) {
    return refuse(
      "too_long",
      `Teammate name ${preview(name)} is ${name.length} characters long; accepted: ${ACCEPTED}.`,
    );
  }
  const lower = name.toLowerCase();
  if (RESERVED_TEAMMATE_NAMES.includes(lower)) {
    return refuse(
      "reserved",
      `Teammate name ${shown} is reserved (reserved in any case: ${RESERVED_TEAMMATE_NAMES.join(", ")}); choose another name.`,
    );
  }
  if (!/^[A-Za-z]/.test(name)) {
    return refuse("bad_start", `Teammate name ${shown} must start with an ASCII letter (A-Z, a-z); accepted: ${ACCEPTED}.`);
  }
  if (!NAME_CHARS_PATTERN.test(name)) {
    const bad = [...new Set([...name].filter((ch) => !/[A-Za-z0-9._-]/.test(ch)))];
    return refuse(
      "bad_chars",
      `Teammate name ${shown} contains ${bad.map((ch) => JSON.stringify(ch)).join(", ")}; accepted: ${ACCEPTED}.`,
    );
  }
  for (const living of livingNames) {
    if (living.toLowerCase() === lower) {
      return refuse(
        "taken",
        `Teammate name ${shown} is taken by the living teammate ${JSON.stringify(living)} (names are compared ignoring case); ` +
          `choose another name, or shut that teammate down first.`,
      );
    }
  }
  return { ok: true };
}

/** The value as JSON, cut to 100 characters so a runaway name cannot flood the message. */
function preview(name: string): string {
  return JSON.stringify(name.length > 100 ? `${name.slice(0, 100)}…` : name);
}

function refuse(reason: TeammateNameProblem, message: string): TeammateNameResult {
  return { ok: false, reason, message };
}
