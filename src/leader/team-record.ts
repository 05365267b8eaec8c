/**
 * The leader's record of its living team (issue 20), kept in its own Pi session as custom entries
 * (never in the model's context), so resuming the session (`pi -c`, `pi --session`, `/resume`) or
 * reloading the extension can bring the same teammates back, each from its own session file.
 *
 * An entry is appended whenever the set of living teammates changes while the session is open; the
 * stops at the session's end write none, so the last entry names the team that was living when the
 * session ended, whether by quit, crash or SIGKILL. Kept in the leader's session and not beside the
 * board: whom to start again is the leader's decision, and a file in the team's dirs is a teammate's
 * to rewrite. What an entry names is still checked at restore (the role is resolved like any spawn).
 */
import type { ExtensionAPI, ExtensionContext } from "@earendil-works/pi-coding-agent";
import { Type, type Static } from "typebox";
import { checkValue } from "../store/index.ts";
import type { Member } from "../team/member.ts";

/** Custom entry type of a team record in the leader's session. */
export const TEAM_RECORD_ENTRY = "pi-teams-team";

const RecordedTeammate = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 64 }),
  agent: Type.String({ minLength: 1, maxLength: 128 }),
  /** Its session dir (src/harness/teammate-sessions.ts); absent for a launcher that runs pi elsewhere. */
  session: Type.Optional(Type.String({ minLength: 1, maxLength: 4096 })),
  /** It ran in a bwrap box: its session file is then only for a boxed successor. */
  boxed: Type.Optional(Type.Literal(true)),
  /** Its worktree's branch and base, for a worktree teammate: it comes back on that branch. */
  worktree: Type.Optional(Type.Object({ branch: Type.String({ minLength: 1, maxLength: 512 }), base: Type.String({ pattern: "^[0-9a-f]{40,64}$" }) })),
});

export const TeamRecordSchema = Type.Object({
  v: Type.Literal(1),
  /** The session key it was written under: a record Pi copied into a fork is not that session's team. */
  key: Type.String({ pattern: "^[0-9a-f]{16}$" }),
  teammates: Type.Array(RecordedTeammate, { maxItems: 64 }),
});

/** One team record: the teammates living at one moment. */
export type TeamRecord = Static<typeof TeamRecordSchema>;
/** One teammate of a record. */
export type RecordedTeammate = Static<typeof RecordedTeammate>;

/** Where records are read and appended: the leader's Pi session. */
export interface TeamRecordPort {
  entries(): unknown[];
  append(record: TeamRecord): void;
}

/** The port on a Pi session: custom entries of type TEAM_RECORD_ENTRY. */
export function sessionTeamRecordPort(pi: ExtensionAPI, ctx: ExtensionContext): TeamRecordPort {
  return {
    entries: () => ctx.sessionManager.getEntries().flatMap((e) => (e.type === "custom" && e.customType === TEAM_RECORD_ENTRY ? [e.data] : [])),
    append: (record) => pi.appendEntry(TEAM_RECORD_ENTRY, record),
  };
}

/** The record of `members`' living teammates, by name, under session key `key`. Pure. */
export function recordOf(members: readonly Member[], key: string): TeamRecord {
  const teammates = members
    .filter((m) => m.living)
    .map((m): RecordedTeammate => ({
      name: m.name,
      agent: m.agent.name,
      ...(m.holdings.session ? { session: m.holdings.session } : {}),
      ...(m.agent.launcher === "bwrap" ? { boxed: true as const } : {}),
      ...(m.worktree ? { worktree: { branch: m.worktree.branch, base: m.worktree.base } } : {}),
    }))
    .sort((a, b) => a.name.localeCompare(b.name));
  return { v: 1, key, teammates };
}

/**
 * The last record among a session's entries, checked, if it was written under session key `key`.
 * One written under another key was copied by Pi into a forked session: not this session's team.
 * An invalid last entry is not skipped for an older one (that would bring back a team that was not
 * living at the end): it is the `problem`.
 */
export function lastTeamRecord(entries: readonly unknown[], key: string): { record?: TeamRecord; problem?: string } {
  if (entries.length === 0) return {};
  const checked = checkValue(TeamRecordSchema, entries.at(-1));
  if (!checked.ok) return { problem: `the session's last team record is not valid (${checked.message}); no teammate was restored` };
  return checked.value.key === key ? { record: checked.value } : {};
}

/**
 * Appends a record when the living team differs from the last one recorded under its key. A
 * session that starts without restoring a recorded team records its empty team at the first
 * `observe`, so that team is not brought back by a later resume.
 */
export class TeamRecorder {
  readonly #port: TeamRecordPort;
  readonly #key: string;
  #last: string;

  constructor(port: TeamRecordPort, key: string) {
    this.#port = port;
    this.#key = key;
    const { record } = lastTeamRecord(port.entries(), key);
    this.#last = JSON.stringify(record ?? { v: 1, key, teammates: [] });
  }

  /** Records `members`' living team if it changed. Never throws (a failed append is `note`d). */
  observe(members: readonly Member[], note: (text: string) => void): void {
    const record = recordOf(members, this.#key);
    const shown = JSON.stringify(record);
    if (shown === this.#last) return;
    try {
      this.#port.append(record);
      this.#last = shown;
    } catch (error) {
      note(`could not record the living team in the session: ${String(error)}`);
    }
  }
}
