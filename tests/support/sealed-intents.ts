/**
 * Board intents written as a real worker writes them (references/board-intents.md): format v2,
 * sealed with the writer's spawn key. For tests that plant intent files by hand; `keys` is the
 * leader's (`LeaderHarness.keys`, or a `SpawnKeys` a unit test issues from).
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { INTENT_FORMAT_VERSION, sealIntent, type BoardIntent, type SpawnKeys, type UnsealedIntent } from "../../src/mail/index.ts";

/** The fields a test chooses; `v` and `at` default to the current format and now. */
export type IntentFields = Omit<UnsealedIntent, "v" | "at"> & { v?: number; at?: number };

/**
 * `fields` as an intent sealed with the key of spawn `fields.spawnId` of `fields.from`.
 * @throws Error when `keys` has no such spawn.
 */
export function sealedIntent(keys: SpawnKeys, fields: IntentFields): BoardIntent {
  const key = keys.keyOf(fields.from, fields.spawnId);
  if (!key) throw new Error(`sealedIntent: no key for ${fields.from} (spawn ${fields.spawnId})`);
  return sealIntent(key, { at: Date.now(), ...fields, v: (fields.v ?? INTENT_FORMAT_VERSION) as typeof INTENT_FORMAT_VERSION });
}

/** Writes `record` (sealed or not) as the marker `<dir>/<name>.json`, the way any process could. */
export async function plantIntent(dir: string, name: string, record: unknown): Promise<void> {
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, `${name}.json`), JSON.stringify(record), { mode: 0o600 });
}
