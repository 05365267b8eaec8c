/**
 * What the leader's harness hands out about its teammates: the deliveries that become leader
 * turns (R26, R30), the notes for the console, and mail written into a child. Declarations only;
 * carried by the session's bus (src/team/signals.ts).
 */
import type { InboxRecord, OutboxRecord } from "../mail/index.ts";

/** What the harness hands to the leader's model: each one becomes its own follow-up turn. */
export type LeaderDelivery =
  | { kind: "report"; record: OutboxRecord; text: string }
  | { kind: "harness_event"; type: string; teammate: string; text: string };

/** Something the harness did, for the console and logs; never a model turn. */
export interface HarnessNote {
  at: number;
  teammate?: string;
  text: string;
}

/** Mail that reached a teammate's control stream: by steering a working child or waking an idle one. */
export interface MailDelivery {
  teammate: string;
  via: "steer" | "wake";
  records: InboxRecord[];
  at: number;
}
