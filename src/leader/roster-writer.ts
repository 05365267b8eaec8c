import { ROSTER_FORMAT_VERSION, type RosterFile } from "../mail/index.ts";
import { SnapshotWriter } from "../store/index.ts";
import type { Member } from "../team/member.ts";

/**
 * Writes `roster.json` (R46, W11) from the harness's members: atomically, and only when it
 * changed (L24). `updatedAt` is the time of the last roster change, not of the write.
 */
export class RosterWriter {
  readonly #writer = new SnapshotWriter();
  readonly #path: string;
  readonly #now: () => number;
  #changedAt = 0;

  constructor(path: string, now: () => number) {
    this.#path = path;
    this.#now = now;
  }

  /** Marks the roster changed now. */
  touch(): void {
    this.#changedAt = this.#now();
  }

  /** Writes the roster of `members`. @throws TeamError `io_error` from the snapshot writer. */
  async write(members: readonly Member[]): Promise<void> {
    const roster: RosterFile = {
      v: ROSTER_FORMAT_VERSION,
      updatedAt: this.#changedAt,
      teammates: members.map((m) => ({
        name: m.name,
        agent: m.agent.name,
        spawnId: m.spawnId,
        status: m.status,
        ...(m.proc && m.living ? { pid: m.proc.pid } : {}),
        tools: m.tools,
      })),
    };
    await this.#writer.write(this.#path, roster);
  }
}
