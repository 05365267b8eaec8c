import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { handoffContextFrom, lastContextTokens, sessionFileIn, teammateSessionDir } from "../../../src/harness/teammate-sessions.ts";
import { chooseHandoffContext, describeHandoffContext, handoffKickoff, HANDOFF_FORK_MAX_TOKENS } from "../../../src/team/handoff.ts";

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

async function sessionDir(): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), "prt-sessions-"));
  dirs.push(root);
  const dir = teammateSessionDir(join(root, "board"), "ann", "s-1");
  await mkdir(dir, { recursive: true });
  return dir;
}

const line = (v: unknown) => `${JSON.stringify(v)}\n`;
const assistant = (totalTokens: number) => line({ type: "message", id: "a", parentId: null, message: { role: "assistant", usage: { totalTokens } } });

describe("chooseHandoffContext (issue 20)", () => {
  it("forks a session file whose last context is at most the threshold, else gives the summary with the reason", () => {
    expect(chooseHandoffContext({ file: "/s/a.jsonl", tokens: HANDOFF_FORK_MAX_TOKENS })).toEqual({ mode: "fork", file: "/s/a.jsonl" });
    expect(chooseHandoffContext({ file: "/s/a.jsonl" })).toEqual({ mode: "summary", reason: "the size of its context could not be read from the end of its session file" });
    const full = chooseHandoffContext({ file: "/s/a.jsonl", tokens: HANDOFF_FORK_MAX_TOKENS + 1 });
    expect(full).toEqual({ mode: "summary", reason: `its context held ${HANDOFF_FORK_MAX_TOKENS + 1} tokens at its stop, above the ${HANDOFF_FORK_MAX_TOKENS} a successor starts from` });
    expect(chooseHandoffContext({ missing: "its session has no conversation yet" })).toEqual({ mode: "summary", reason: "its session has no conversation yet" });
    expect(describeHandoffContext("ann", full)).toContain("it starts from the summary alone: its context held");
    expect(describeHandoffContext("ann", { mode: "fork", file: "/f" })).toBe("its context is a fork of ann's session, so it holds everything ann saw");
  });

  it("a forked successor's kickoff says the conversation above is its predecessor's", () => {
    const facts = { name: "ann", agent: "builder", assignmentOpen: false, claims: [], reports: [] };
    expect(handoffKickoff(facts, { worktree: false, forked: true })).toContain("The conversation above is @ann's, up to its stop");
    expect(handoffKickoff(facts, { worktree: false })).not.toContain("conversation above");
  });
});

describe("a teammate's session file as the leader reads it", () => {
  it("finds the file Pi wrote, and the context tokens of its last assistant message, skipping lines of other shapes", async () => {
    const dir = await sessionDir();
    expect(await sessionFileIn(dir)).toBeUndefined();
    expect(await handoffContextFrom(dir)).toEqual({ mode: "summary", reason: "its session has no conversation yet (no Pi session file in its session dir)" });
    const file = join(dir, "2026-12-04T10-00-00-000Z_x.jsonl");
    await writeFile(file, line({ type: "session", id: "x" }) + assistant(1200) + "not json\n" + assistant(3400) + line({ type: "message", message: { role: "user", content: "hi" } }) + '{"type":"message","message":{"role":"assistant","usage":{"totalTokens":"lots"}}}\n');
    expect(await sessionFileIn(dir)).toBe(file);
    expect(await lastContextTokens(file)).toBe(3400);
    expect(await handoffContextFrom(dir)).toEqual({ mode: "fork", file });
  });

  it("gives the summary when the context was too full, and for a predecessor without a session dir", async () => {
    const dir = await sessionDir();
    await writeFile(join(dir, "t_x.jsonl"), line({ type: "session", id: "x" }) + assistant(HANDOFF_FORK_MAX_TOKENS + 5));
    expect(await handoffContextFrom(dir)).toMatchObject({ mode: "summary", reason: expect.stringContaining(`held ${HANDOFF_FORK_MAX_TOKENS + 5} tokens`) });
    expect(await handoffContextFrom(undefined)).toMatchObject({ mode: "summary", reason: expect.stringContaining("launcher runs pi elsewhere") });
  });

  it("a file that is not a Pi session (no header line) is not one: Pi would refuse to fork it", async () => {
    const dir = await sessionDir();
    await writeFile(join(dir, "zz_junk.jsonl"), assistant(10));
    await writeFile(join(dir, "zz_empty.jsonl"), "");
    expect(await sessionFileIn(dir)).toBeUndefined();
    const real = join(dir, "aa_real.jsonl");
    await writeFile(real, line({ type: "session", id: "r" }) + assistant(10));
    expect(await sessionFileIn(dir)).toBe(real);
    // A symlink in place of a session dir leads elsewhere: not followed.
    const link = `${dir}-link`;
    await symlink(dir, link);
    expect(await sessionFileIn(link)).toBeUndefined();
  });

  it("a symlink or a FIFO in place of the session file is not read, and the leader is not blocked", async () => {
    const dir = await sessionDir();
    const secret = join(dir, "..", "secret.txt");
    await writeFile(secret, assistant(10));
    await symlink(secret, join(dir, "t_link.jsonl"));
    expect(await sessionFileIn(dir)).toBeUndefined();
    await expect(lastContextTokens(join(dir, "t_link.jsonl"))).rejects.toThrow(/ELOOP|symbolic/);
    const fifo = join(dir, "t_fifo.jsonl");
    execFileSync("mkfifo", [fifo]);
    expect(await sessionFileIn(dir)).toBeUndefined();
    await expect(lastContextTokens(fifo)).rejects.toThrow(/not a regular file/);
  });
});
