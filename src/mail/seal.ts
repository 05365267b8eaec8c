import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { Type } from "typebox";

/**
 * Seals bind a record to the spawn that wrote it (references/security.md). At spawn the leader
 * draws a random key for the incarnation and hands it to the child over an inherited pipe
 * (never the environment, the roster or any file); the child keeps it in memory only. Every
 * record a teammate writes carries `sig`, an HMAC-SHA256 of the record's fields under that
 * key, and the leader, which holds every key, checks it before it delivers or applies
 * anything. A peer with `bash` can read and write every file of the team but not the key, so
 * it cannot write a record that passes as another spawn's. Nothing goes the other way in a
 * file: the leader answers on the teammate's own stdin (src/mail/stream-wire.ts).
 */

/** Length of a spawn key, in bytes. */
export const SPAWN_KEY_BYTES = 32;

/** What a seal covers; part of the signed text, so a seal of one kind never passes as another. */
export type SealKind = "report" | "mail" | "intent";

/** A seal as written in records: base64url of the 32-byte HMAC, 43 characters. */
export const SealSchema = Type.String({ pattern: "^[A-Za-z0-9_-]{43}$" });

/** A new random spawn key ({@link SPAWN_KEY_BYTES} bytes). */
export function newSpawnKey(): Buffer {
  return randomBytes(SPAWN_KEY_BYTES);
}

/**
 * The seal of `fields` (in a fixed order chosen by the caller per kind) under `key`: the
 * HMAC-SHA256 of `JSON.stringify([kind, ...fields])` with `undefined` written as null, as
 * base64url. Deterministic; pure apart from the hash.
 */
export function sealOf(key: Buffer, kind: SealKind, fields: readonly unknown[]): string {
  const text = JSON.stringify([kind, ...fields.map((f) => (f === undefined ? null : f))]);
  return createHmac("sha256", key).update(text).digest("base64url");
}

/** True when `sig` is the seal of `fields` under `key`. Compares in constant time; never throws. */
export function sealHolds(key: Buffer, kind: SealKind, fields: readonly unknown[], sig: unknown): boolean {
  if (typeof sig !== "string") return false;
  const want = Buffer.from(sealOf(key, kind, fields));
  const got = Buffer.from(sig);
  return got.length === want.length && timingSafeEqual(got, want);
}

/**
 * The leader's keys of every spawn of this session, by spawn id, stopped ones included (mail a
 * teammate wrote before it stopped is still checked, then judged stale or not by its spawn
 * id). Kept in the leader's memory only; an object per session, never a module singleton.
 */
export class SpawnKeys {
  readonly #keys = new Map<string, { name: string; key: Buffer }>();

  /** A new key for teammate `name`'s spawn `spawnId`, kept until the session ends. */
  issue(name: string, spawnId: string): Buffer {
    const key = newSpawnKey();
    this.#keys.set(spawnId, { name, key });
    return key;
  }

  /**
   * The key of `spawnId` when that spawn is teammate `name`'s; undefined otherwise (no spawn of
   * this session has that id, or it is another teammate's: a seal under one's own key must not
   * pass for a peer's name).
   */
  keyOf(name: string, spawnId: string | undefined): Buffer | undefined {
    const entry = spawnId === undefined ? undefined : this.#keys.get(spawnId);
    return entry && entry.name === name ? entry.key : undefined;
  }
}

/** The refusal text for a record whose seal fails: it names whose spawn it claims to be. */
export function notSignedBy(name: string): string {
  return `refused: not signed by ${name}'s spawn`;
}
