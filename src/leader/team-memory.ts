import type { SpawnRequest, SpawnResult } from "../harness/index.ts";
import type { Member } from "../team/member.ts";
import { TeamRecorder, type TeamRecord, type TeamRecordPort } from "./team-record.ts";
import { restoreTeam, type RestoreDeps, type RestoreOutcome } from "./team-restore.ts";

/** What a session's `TeamMemory` reads and calls. */
export interface TeamMemoryOptions {
  /** The leader's record of its living team in its Pi session; undefined: nothing is recorded. */
  readonly port: TeamRecordPort | undefined;
  /** The session key records are written under. */
  readonly key: string;
  readonly members: () => readonly Member[];
  readonly spawn: (req: SpawnRequest) => Promise<SpawnResult>;
  readonly branchExists: RestoreDeps["branchExists"];
  readonly boardDir: string;
  /** True once the session began closing: the stops at its end are not recorded. */
  readonly closed: () => boolean;
  readonly note: (text: string) => void;
}

/**
 * A session's memory of its team (issue 20): the living team recorded in the leader's Pi session
 * as it changes (src/leader/team-record.ts), and brought back from the last record at a resume or
 * /reload (src/leader/team-restore.ts). Nothing is recorded while a restore runs, so a leader
 * killed halfway finds the whole team next time.
 */
export class TeamMemory {
  readonly #o: TeamMemoryOptions;
  readonly #recorder: TeamRecorder | undefined;
  #restoring = false;

  constructor(options: TeamMemoryOptions) {
    this.#o = options;
    this.#recorder = options.port ? new TeamRecorder(options.port, options.key) : undefined;
  }

  /**
   * Records the living team if it changed. Called on every team change, and once at the start of
   * a session that restores nothing, which thus forgets a recorded team. Never throws.
   */
  observe(): void {
    if (!this.#o.closed() && !this.#restoring) this.#recorder?.observe(this.#o.members(), this.#o.note);
  }

  /** Spawns the teammates of `record` again, then records the team living after. Never rejects. */
  async restore(record: TeamRecord): Promise<RestoreOutcome> {
    this.#restoring = true;
    try {
      const { spawn, branchExists, boardDir } = this.#o;
      return await restoreTeam(record, { spawn, branchExists, boardDir });
    } finally {
      this.#restoring = false;
      this.observe();
    }
  }
}
