/**
 * Issue 8 on the real pi CLI: compaction of a teammate's context. The teammate runs on a scripted
 * model with a small context window ("scripted-small", 20 000 tokens) and answers with a long
 * text, so its gauge is nearly full; Pi's own threshold compaction is off and it keeps only 500
 * recent tokens, so a `compact` has something to summarise. Verified on Pi 1.6.0 first: a `prompt`
 * sent while a `compact` runs is rejected ("Cannot submit a prompt while compaction is in
 * progress"), and a `compact` sent while the child streams aborts its run.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { useCleanups } from "../support/cleanups.ts";
import type { LeaderDelivery } from "../../src/team/leader-delivery.ts";
import { TeamSession } from "../../src/leader/team-session.ts";
import { appendInboxRecord, makeInboxRecord } from "../../src/mail/index.ts";
import { agentFile, PACKAGE_DIR, writeAgents } from "../support/leader.ts";
import { createPiEnv, SCRIPTED_MODEL_ID, SCRIPTED_PROVIDER, type PiEnv, type PiEnvOptions } from "../support/pi-env.ts";
import { contentText, startScriptedModel, type ModelCall, type Reply, type ScriptedModel } from "../support/scripted-model.ts";
import { sendCall, spawnCall, startTeam, waitUntil, type Team } from "../support/team.ts";

const SMALL = "scripted-small";
const ENV: Pick<PiEnvOptions, "settings" | "extraModels"> = {
  extraModels: [{ id: SMALL, contextWindow: 20_000, maxTokens: 4000 }],
  settings: { compaction: { enabled: false, keepRecentTokens: 500 } },
};
const AGENTS = { "worker.md": agentFile("worker", "You are a worker.", { tools: "read", model: `${SCRIPTED_PROVIDER}/${SMALL}` }) };
/** About 17 500 tokens of text: with the prompt, the context passes 80% of 20 000. */
const BULK = "lorem ipsum ".repeat(5800);

const isSummary = (c: ModelCall): boolean => c.system.startsWith("You are a context summarization assistant");
const SUMMARY: Reply = { text: "## Goal\nSUMMARY OF THE WORK SO FAR" };

let team: Team | undefined;
afterEach(async () => {
  await team?.stop();
  team = undefined;
});
const cleanup = useCleanups();

describe("automatic compaction with a real leader", () => {
  it("compacts the teammate after its terminal report, once its run settled, and the leader's model makes no extra request", async () => {
    team = await startTeam({
      agents: AGENTS,
      envOptions: ENV,
      scripts: {
        leader: (c) => (c.toolResults.length === 0 && c.lastUser === "GO" ? { toolCalls: [spawnCall("ada", "worker", "TASK")] } : { text: "Noted." }),
        ada: (c) => {
          if (isSummary(c)) return SUMMARY;
          return c.toolResults.length === 0 ? { text: BULK, toolCalls: [sendCall("leader", "ADA-REPORT", "completed")] } : { text: "done" };
        },
      },
    });
    const { model } = team;
    await team.run("GO");
    const summary = await model.waitForCall((c) => c.agent === "ada" && isSummary(c), 30_000);
    const log = join(team.runtimeDir, "logs", "harness.log");
    await waitUntil("the compaction note", async () => (await readFile(log, "utf8")).includes("compacted context"), 30_000);

    // The summary came after the report and after the run's last model call, never before.
    const ada = model.callsOf("ada");
    const reportCall = ada.find((c) => c.reply?.toolCalls?.some((t) => t.arguments.message === "ADA-REPORT"));
    const lastTurn = ada.filter((c) => !isSummary(c)).at(-1);
    expect(reportCall && lastTurn).toBeTruthy();
    expect(summary.seq).toBeGreaterThan(lastTurn!.seq);
    expect(ada.filter(isSummary).every((c) => c.seq > reportCall!.seq)).toBe(true);
    expect(await readFile(log, "utf8")).toMatch(/@ada: compacted context \S+ → \S+ \(auto\)/);

    // A barrier turn: anything the compaction had queued for the leader would come before it.
    await team.run("PING");
    const leaderTurns = model.callsOf("leader").map((c) => (c.toolResults.length > 0 ? `${c.lastUser}+result` : c.lastUser.includes("ADA-REPORT") ? "report" : c.lastUser));
    expect(leaderTurns).toEqual(["GO", "GO+result", "report", "PING"]);
    expect(model.callsOf("ada").filter((c) => !isSummary(c))).toHaveLength(1); // a terminal send_message ends its run
  });
});

/** An in-process TeamSession (the console's feed is in memory) with real teammate pis. */
async function session(handler: (c: ModelCall) => Reply | Promise<Reply>): Promise<{ s: TeamSession; model: ScriptedModel; env: PiEnv; deliveries: LeaderDelivery[] }> {
  const model = await startScriptedModel({ handler });
  const env = await createPiEnv({ model, ...ENV });
  await writeAgents(env, AGENTS);
  const deliveries: LeaderDelivery[] = [];
  const s = new TeamSession({
    sessionFile: undefined, cwd: env.cwd, packageDir: PACKAGE_DIR, env: env.env, trusted: () => true,
    leaderModel: () => ({ provider: SCRIPTED_PROVIDER, id: SCRIPTED_MODEL_ID }),
    deliver: (d) => deliveries.push(d),
  });
  cleanup(async () => {
    await s.close();
    await model.close();
    await env.cleanup();
  });
  await s.start();
  return { s, model, env, deliveries };
}

describe("compaction in a TeamSession", () => {
  it("an automatic compaction is a feed row and a Mail note, never a leader delivery", async () => {
    const { s, model, deliveries } = await session((c) => {
      if (isSummary(c)) return SUMMARY;
      return c.toolResults.length === 0 ? { text: BULK, toolCalls: [sendCall("leader", "ADA-REPORT", "completed")] } : { text: "done" };
    });
    await s.harness.spawn({ name: "ada", agent: "worker", prompt: "TASK" });
    await s.harness.spawn({ name: "bob", agent: "worker" }); // an idle peer whose mail reaches ada mid-compaction
    const ada = s.harness.living("ada")!;
    await waitUntil("the compaction to end", () => s.feed.mate(ada).compaction?.state === "done", 30_000);
    expect(s.feed.mate(ada).compaction).toMatchObject({ by: "auto", tokensBefore: expect.any(Number), tokensAfter: expect.any(Number) });
    const row = s.feed.mailRows().find((r) => r.kind === "note" && r.from === "ada");
    expect(row).toMatchObject({ to: "leader", receipt: "not sent to the leader's model", body: expect.stringMatching(/^compacted context \S+ → \S+ \(auto\)$/) });
    // The gauge was read again after the compaction: Pi knows no token count until the next answer.
    await waitUntil("the gauge after the compaction", () => s.feed.mate(ada).context?.percent === null, 10_000);
    expect(deliveries.map((d) => (d.kind === "report" ? d.record.body : d.type))).toEqual(["ADA-REPORT"]);
    expect(model.callsOf("ada").filter(isSummary).length).toBeGreaterThan(0);
  });

  it("harness.compact compacts an idle teammate by hand, the gauge follows, and mail sent meanwhile is delivered after", async () => {
    let slowSummary = false;
    const { s, model, deliveries } = await session((c) => {
      if (isSummary(c)) return { ...SUMMARY, delayMs: slowSummary ? 1500 : 0 };
      if (c.lastUser.includes("TASK")) return { text: BULK.slice(0, 20_000), toolCalls: [sendCall("leader", "FIRST-REPORT", "completed")] };
      return { text: "got the mail" };
    });
    await s.harness.spawn({ name: "ada", agent: "worker", prompt: "TASK" });
    await s.harness.spawn({ name: "bob", agent: "worker" }); // an idle peer whose mail reaches ada mid-compaction
    const ada = s.harness.living("ada")!;
    await waitUntil("ada to settle idle with a gauge", () => ada.quiet && typeof s.feed.mate(ada).context?.percent === "number", 30_000);
    const before = s.feed.mate(ada).context!;
    // Its report was a boundary, but the context is below 80%: no automatic compaction.
    expect(before.percent).toBeLessThan(80);
    expect(model.callsOf("ada").filter(isSummary)).toEqual([]);

    await expect(s.harness.compact("nobody")).rejects.toMatchObject({ code: "not_found", message: expect.stringContaining("Living: ada") });
    const gauges: (number | null | undefined)[] = [];
    const stats = s.feed.stats.bind(s.feed);
    s.feed.stats = (m, data) => {
      stats(m, data);
      gauges.push(s.feed.mate(m).context?.percent);
    };
    slowSummary = true;
    const line = s.harness.compact("ada");
    await model.waitForCall((c) => c.agent === "ada" && isSummary(c), 10_000);
    expect(s.feed.mate(ada).compaction).toMatchObject({ state: "running", by: "user" });
    // Mail while it compacts: a peer's inbox record and a leader message. Pi would reject a prompt now.
    const bob = s.harness.living("bob")!;
    const bobKey = s.harness.keys.keyOf("bob", bob.spawnId);
    await appendInboxRecord(ada.inbox.path, makeInboxRecord({ from: "bob", fromSpawnId: bob.spawnId, to: "ada", body: "PEER-MAIL-DURING-COMPACTION" }, Date.now(), bobKey));
    const sent = await s.harness.sendFromLeader({ to: "ada", message: "LEADER-MAIL-DURING-COMPACTION" });
    expect(sent.result).toBe("queued");

    expect(await line).toMatch(/^@ada compacted: \S+ → \S+ tokens$/);
    expect(s.feed.mate(ada).compaction).toMatchObject({ state: "done", by: "user" });
    expect(s.feed.mailRows().some((r) => r.kind === "note" && /^compacted context .* \(user\)$/.test(r.body))).toBe(true);
    // The mail held during the compaction wakes ada at once, and her next answer's stats may
    // replace the gauge before a poll sees it: so every gauge read is recorded.
    await waitUntil("the gauge after the compaction", () => gauges.includes(null), 10_000);

    const woken = await model.waitForCall((c) => c.agent === "ada" && !isSummary(c) && c.lastUser.includes("DURING-COMPACTION"), 30_000);
    const mailTurns = model.callsOf("ada").filter((c) => !isSummary(c) && contentText(c.messages.at(-1)?.content ?? null).includes("DURING-COMPACTION"));
    const seen = mailTurns.map((c) => c.lastUser).join("\n");
    expect(seen).toContain("PEER-MAIL-DURING-COMPACTION");
    expect(seen).toContain("LEADER-MAIL-DURING-COMPACTION");
    expect(woken.seq).toBeGreaterThan(Math.max(...model.callsOf("ada").filter(isSummary).map((c) => c.seq)));
    // No refused prompt, so no delivery-failed event for the leader either.
    expect(s.notes.entries().some((n) => /delivery failed|failed: .*compaction is in progress/i.test(n.text))).toBe(false);
    expect(deliveries.filter((d) => d.kind === "harness_event")).toEqual([]);
  });
});
