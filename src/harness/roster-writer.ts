import { ROSTER_FORMAT_VERSION, type RosterEntry, type RosterFile, type RosterPeerCut } from "../mail/index.ts";
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
  /** The teammates as last written, to tell a change from a rewrite. */
  #shown = "";

  constructor(path: string, now: () => number) {
    this.#path = path;
    this.#now = now;
  }

  /**
   * Writes the roster of `members`: for each, its status, pid, tool grant and model (L5, R6) and
   * the resource tags it holds (`holdings`, read by the shared-tree edit guards); and the pairs
   * the peer-pair cap cut (`peerCuts`, W19: each member's send_message refuses up front).
   * `changed` gets the roster, before the file is written, when what it shows changed since the
   * last call (stream teammates get it on their pipe).
   * @throws TeamError `io_error` from the snapshot writer.
   */
  async write(members: readonly Member[], holdings: (m: Member) => Array<{ tag: string; taskId?: string }> = () => [], changed?: (roster: RosterFile) => void, peerCuts: readonly RosterPeerCut[] = []): Promise<void> {
    const teammates: RosterEntry[] = members.map((m) => ({
        name: m.name,
        agent: m.agent.name,
        spawnId: m.spawnId,
        status: m.status,
        ...(m.proc && m.living ? { pid: m.proc.pid } : {}),
        tools: m.tools,
        model: m.modelLabel,
        ...(m.living ? { holds: holdings(m) } : {}),
      }));
    // Holdings change with the board, not with a teammate's status: compare to see a change.
    const shown = JSON.stringify([teammates, peerCuts]);
    const isNew = shown !== this.#shown;
    if (isNew) this.#changedAt = this.#now();
    this.#shown = shown;
    const roster: RosterFile = { v: ROSTER_FORMAT_VERSION, updatedAt: this.#changedAt, teammates, ...(peerCuts.length > 0 ? { peerCuts: [...peerCuts] } : {}) };
    if (isNew) changed?.(roster);
    await this.#writer.write(this.#path, roster);
  }
}
