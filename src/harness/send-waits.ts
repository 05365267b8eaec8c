import type { Member } from "../team/member.ts";

/** Where a leader message went: into a working child's run, or held for its next wake. */
export type LeaderRoute = "steered" | "queued";

/**
 * The answers spawns and leader sends wait for until an effect gives them: a leader
 * `send_message`'s routing result, by message id, and a kickoff prompt's answer, by spawn id.
 * Owned by the `TeamDriver`; a teammate going away releases its waits, so none hangs.
 */
export class SendWaits {
  #lastMessageId = 0;
  /** The leader's send_message calls waiting for their routing result, by message id. */
  readonly #leader = new Map<number, { m: Member; resolve: (r: LeaderRoute) => void }>();
  /** Kickoff prompts waiting for the child's answer, by spawn id. */
  readonly #kickoffs = new Map<string, (error: string | undefined) => void>();

  /** A fresh id for one leader message (unique in the session). */
  nextMessageId(): number {
    return ++this.#lastMessageId;
  }

  /** Resolves with the routing result of leader message `id` to `m`, once `route` gives it. */
  leaderResult(m: Member, id: number): Promise<LeaderRoute> {
    return new Promise((resolve) => this.#leader.set(id, { m, resolve }));
  }

  /** Gives leader message `id` its routing result; nothing if no one waits for it. */
  route(id: number, result: LeaderRoute): void {
    this.#leader.get(id)?.resolve(result);
    this.#leader.delete(id);
  }

  /** A closed teammate's steers in flight will get no answer event: their messages go to the inbox. */
  releaseLeader(m: Member): void {
    for (const [id, wait] of this.#leader) {
      if (wait.m === m) this.route(id, "queued");
    }
  }

  /** Resolves once `m`'s kickoff prompt was answered: undefined, or why it failed. */
  kickoffSent(m: Member): Promise<string | undefined> {
    return new Promise((resolve) => this.#kickoffs.set(m.spawnId, resolve));
  }

  /** Answers `m`'s kickoff wait, if any: undefined when the prompt was accepted, else why not. */
  answerKickoff(m: Member, error: string | undefined): void {
    this.#kickoffs.get(m.spawnId)?.(error);
    this.#kickoffs.delete(m.spawnId);
  }

  /** A spawn waiting for its kickoff's answer learns that the teammate is going away. */
  releaseKickoff(m: Member): void {
    this.answerKickoff(m, "the teammate was stopped while starting");
  }
}
