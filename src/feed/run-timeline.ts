import { holderOf, type Board, type TaskStatus } from "../board/index.ts";

/** A teammate incarnation entered a phase (starting, idle, working, stopping, stopped). */
export interface PhaseEvent {
  readonly kind: "phase";
  readonly at: number;
  readonly name: string;
  readonly spawnId: string;
  readonly phase: string;
}

/** A board task changed status; `who` is its holder (claimed, in review, parked) or completer. */
export interface TaskEvent {
  readonly kind: "task";
  readonly at: number;
  readonly taskId: string;
  readonly subject: string;
  readonly status: TaskStatus;
  readonly who?: string;
}

/** One mark of the run's timeline (issue 20, the export). */
export type TimelineEvent = PhaseEvent | TaskEvent;

/** Events kept; the oldest are dropped first (a run of hours has a few thousand). */
export const TIMELINE_EVENTS = 20_000;

/**
 * What happened when, for the run export's timeline (issue 20 scope 5): each incarnation's phase
 * changes and each board task's status changes, with the time they were seen (ms). Mail has its
 * own rows with times (the feed's Mail page). In memory only, bounded by `TIMELINE_EVENTS`; fed by
 * the feed's `phases` and by the session on every board change.
 */
export class RunTimeline {
  readonly #now: () => number;
  readonly #events: TimelineEvent[] = [];
  /** Last status and holder seen per task id, so only changes are kept. */
  readonly #tasks = new Map<string, string>();
  /** When the timeline began (ms): the session's start. */
  readonly startedAt: number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
    this.startedAt = now();
  }

  /** `name` (incarnation `spawnId`) is now in `phase`. */
  phase(name: string, spawnId: string, phase: string): void {
    this.#push({ kind: "phase", at: this.#now(), name, spawnId, phase });
  }

  /** Looks at every task of `board`; a status or holder not seen before becomes an event. */
  board(board: Board): void {
    for (const task of board.tasks.values()) {
      const s = task.state;
      const who = s.status === "completed" ? s.by : holderOf(s)?.name;
      const seen = `${s.status}\u0000${who ?? ""}`;
      if (this.#tasks.get(task.id) === seen) continue;
      this.#tasks.set(task.id, seen);
      this.#push({ kind: "task", at: this.#now(), taskId: task.id, subject: task.subject, status: s.status, ...(who ? { who } : {}) });
    }
  }

  /** The events, oldest first. */
  events(): readonly TimelineEvent[] {
    return this.#events;
  }

  #push(e: TimelineEvent): void {
    this.#events.push(e);
    if (this.#events.length > TIMELINE_EVENTS) this.#events.splice(0, this.#events.length - TIMELINE_EVENTS);
  }
}
