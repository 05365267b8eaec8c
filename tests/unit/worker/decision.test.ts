/**
 * requestDecision validates the whole intent before publishing it: an intent the leader would
 * set aside as invalid is refused at once with the field, the value and the limit, instead of
 * waiting out the decision timeout.
 */
import { mkdir, readdir } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { TeamError } from "../../../src/errors.ts";
import { boardLayoutAt } from "../../../src/store/index.ts";
import { requestDecision } from "../../../src/worker/decision.ts";
import { useTempDirs } from "../store/tmp.ts";

const tempDir = useTempDirs();
const who = { from: "alice", spawnId: "alice-1" } as const;

async function refused(intent: Parameters<typeof requestDecision>[1]): Promise<{ error: TeamError; ms: number; published: string[] }> {
  const layout = boardLayoutAt(join(await tempDir(), "board"));
  await mkdir(layout.claimsDir, { recursive: true });
  await mkdir(layout.submissionsDir, { recursive: true });
  const t0 = Date.now();
  // No leader answers here: without the check this would end in a timeout.
  const error = await requestDecision(layout, intent, 3000).catch((e: unknown) => e);
  const ms = Date.now() - t0;
  expect(error).toBeInstanceOf(TeamError);
  const published = [...(await readdir(layout.claimsDir)), ...(await readdir(layout.submissionsDir))];
  return { error: error as TeamError, ms, published };
}

describe("requestDecision", () => {
  it("refuses a claim whose task id breaks the intent schema at once, naming field, value and limit", async () => {
    const { error, ms, published } = await refused({ ...who, action: "claim", taskId: "t".repeat(65) });
    expect(error.code).toBe("invalid_input");
    expect(error.message).toContain("task_claim");
    expect(error.message).toContain("/taskId");
    expect(error.message).toContain("tttt");
    expect(error.message).toContain("65 characters");
    expect(error.message).toContain("64 characters");
    expect(error.message.length).toBeLessThan(400);
    expect(ms).toBeLessThan(2000);
    expect(published).toEqual([]);
  });

  it("refuses a submission whose result is over the intent limit, without echoing it whole", async () => {
    const { error, published } = await refused({ ...who, action: "submit", taskId: "a", status: "completed", result: "r".repeat(61_000) });
    expect(error.code).toBe("invalid_input");
    expect(error.message).toContain("task_submit");
    expect(error.message).toContain("/result");
    expect(error.message).toContain("61000 characters");
    expect(error.message).toContain("60000 characters");
    expect(error.message.length).toBeLessThan(400);
    expect(published).toEqual([]);
  });
});
