/**
 * Fault suite, case 6: state corrupted under a running team (real leader and teammate pis).
 * While alice streams ten reports, half a line is appended to her outbox; before bob mails
 * alice, roster.json is cut in half (his sends are refused until a roster change rewrites it)
 * and half a line is appended to alice's inbox; a garbage
 * file lands among the claim intents while alice claims a task. Each must give one clear note
 * (harness.log, or the failing tool's own result) naming the file, and nothing else may be
 * lost: every report and every accepted peer message arrives once, the claim is answered.
 */
import { appendFile, readdir, readFile, truncate, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { sessionKey } from "../../src/store/layout.ts";
import type { ModelCall, Reply } from "../support/scripted-model.ts";
import { spawnCall, waitStatus, type Team } from "../support/team.ts";
import { toolResultsSeen } from "../support/board.ts";
import { recordFigures, secondsSince } from "./support/figures.ts";
import { mailInCall, reportBodies } from "./support/mail.ts";
import { startWorkerTeam } from "./support/team.ts";
import { pollUntil, waitQuiet } from "./support/waits.ts";

const REPORTS = 10;
const PEERS = 6;

let team: Team | undefined;
afterEach(async () => {
  await team?.stop();
  team = undefined;
});

describe("corrupted state while the team runs", () => {
  it("a half line in an outbox and an inbox, a truncated roster, a garbage intent: one clear note each, nothing else lost", async () => {
    const t0 = Date.now();
    const step = { alice: 0, bob: 0, corrupted: false };
    // Whether roster.json parsed when bob answered with each send and when he saw its result: the
    // leader may rewrite the roster (any status change) at any moment, and only a send whose
    // roster was still cut when its result came back is known to have met the cut one.
    const rosterCut = { atSend: new Map<number, boolean>(), atResult: new Map<number, boolean>() };
    const cutNow = async (): Promise<boolean> => {
      try {
        JSON.parse(await readFile(join(runtime, "roster.json"), "utf8"));
        return false;
      } catch {
        return true;
      }
    };
    let runtime = "";
    let boardDir = "";
    const alice = async (c: ModelCall): Promise<Reply> => {
      if (c.toolResults.length === 0 && c.lastUser.includes("CLAIM the task")) return { toolCalls: [{ name: "task_claim", arguments: {} }] };
      if (c.toolResults.length === 0 && !c.lastUser.includes("STREAM reports") && step.alice === 0) return { text: "ok" };
      const k = step.alice++;
      if (k >= REPORTS) return { text: "done" };
      if (k === 3) await appendFile(join(runtime, "outbox", "alice.jsonl"), '{"v":1,"id":"half-a-line","from":"alice","bo', { mode: 0o600 });
      return { toolCalls: [{ name: "send_message", arguments: { to: "leader", message: `R-alice-${k}` } }] };
    };
    const bob = async (c: ModelCall): Promise<Reply> => {
      if (c.toolResults.length === 0 && !c.lastUser.includes("MAIL alice") && step.bob === 0) return { text: "ok" };
      const k = step.bob++;
      if (step.corrupted && k > 2 && !rosterCut.atResult.has(k - 1)) rosterCut.atResult.set(k - 1, await cutNow());
      if (k >= PEERS) return { text: "done" };
      if (k === 2 && !step.corrupted) {
        step.corrupted = true;
        const roster = join(runtime, "roster.json");
        await truncate(roster, Math.floor((await readFile(roster)).length / 2));
        await appendFile(join(runtime, "inbox", "alice.jsonl"), '{"v":1,"id":"half-an-inbox-line","from":"bob",', { mode: 0o600 });
      }
      // Before the corruption bob reports to the leader: peer mail would wake alice, and her
      // status change would make the leader rewrite the roster before bob's next send.
      const to = !step.corrupted && k < 2 ? "leader" : "alice";
      if (step.corrupted && !rosterCut.atSend.has(k)) rosterCut.atSend.set(k, await cutNow());
      return { toolCalls: [{ name: "send_message", arguments: { to, message: `P-bob-${k}` } }] };
    };
    const say = (to: string, message: string) => (): Reply => ({ toolCalls: [{ name: "send_message", arguments: { to, message } }] });
    team = await startWorkerTeam({
      SETUP: () => ({ toolCalls: [spawnCall("alice", "worker"), spawnCall("bob", "worker")] }),
      STREAM: say("alice", "STREAM reports"),
      MAIL: say("bob", "MAIL alice"),
      NUDGE: say("alice", "a leader message, so the roster changes"),
      // The task is made only now: a board notice to an idle alice earlier would wake her and
      // rewrite the roster in the middle of bob's sends.
      CLAIM: () => ({ toolCalls: [{ name: "task_create", arguments: { subject: "Corrupt task" } }, { name: "send_message", arguments: { to: "alice", message: "CLAIM the task" } }] }),
    }, { alice, bob });
    const t = team;
    runtime = t.runtimeDir;
    boardDir = join(t.env.agentDir, "tasks", sessionKey(undefined, t.env.cwd));
    await t.run("SETUP", 60_000);
    await waitStatus(runtime, "alice", "idle");
    await waitStatus(runtime, "bob", "idle");
    await waitQuiet(t.model, runtime);

    // 1. Half a line in alice's outbox, between her 3rd and 4th report.
    await t.leader.prompt("STREAM");
    await pollUntil("alice's ten reports to reach the leader", () => reportBodies(t.leader.customMessages()).length >= REPORTS, 60_000);
    await waitQuiet(t.model, runtime);

    // 2. roster.json cut in half and half a line in alice's inbox, before bob's 3rd message.
    await t.leader.prompt("MAIL");
    await pollUntil("bob's six sends", () => toolResultsSeen(t.model, "bob", "send_message").length >= PEERS, 60_000);
    await waitQuiet(t.model, runtime);
    const firstRound = toolResultsSeen(t.model, "bob", "send_message");
    const refused = firstRound.filter((r) => !r.startsWith("queued:"));
    // Bob's sends 2..5 went to alice after the cut: cut when its result came back, so cut all
    // along (only the leader's rename repairs it), ⇒ refused; whole when sent ⇒ accepted.
    const cutSends = [2, 3, 4, 5].filter((k) => rosterCut.atResult.get(k) === true);
    const wholeSends = [2, 3, 4, 5].filter((k) => rosterCut.atSend.get(k) === false);
    // A leader message wakes alice: her status changes and the leader rewrites the roster.
    await t.leader.prompt("NUDGE");
    await waitQuiet(t.model, runtime);
    step.bob = 0;
    await t.leader.prompt("MAIL");
    await pollUntil("bob's six sends after the roster was rewritten", () => toolResultsSeen(t.model, "bob", "send_message").length >= 2 * PEERS, 60_000);
    await waitQuiet(t.model, runtime);

    // 3. A garbage claim intent, sorted before alice's real one.
    await writeFile(join(boardDir, "claims", "aaa-garbage.json"), "{ this is not an intent", { mode: 0o600 });
    await t.leader.prompt("CLAIM");
    await pollUntil("alice's claim result", () => toolResultsSeen(t.model, "alice", "task_claim").length >= 1, 30_000);
    await pollUntil("the garbage intent set aside", async () => (await readdir(join(boardDir, "claims", "invalid")).catch(() => [] as string[])).length > 0, 15_000);
    await waitQuiet(t.model, runtime);

    const log = (await readFile(join(runtime, "logs", "harness.log"), "utf8")).split("\n");
    const notes = (needle: string) => log.filter((l) => l.includes(needle));
    const outboxNotes = notes("outbox/alice.jsonl");
    const inboxNotes = notes("inbox/alice.jsonl");
    const intentNotes = notes("aaa-garbage.json");
    const rosterNotes = notes("roster");
    const reports = reportBodies(t.leader.customMessages()).filter((b) => b.includes('from="alice"')).map((b) => /R-alice-\d+/.exec(b)?.[0] ?? "?");
    const sends = t.model.callsOf("bob").flatMap((c) => (c.reply?.toolCalls ?? []).map((tc) => ({ to: String(tc.arguments.to), body: String(tc.arguments.message) })));
    const results = toolResultsSeen(t.model, "bob", "send_message");
    const peerSends = sends.map((x, i) => ({ ...x, result: results[i] ?? "" })).filter((x) => x.to === "alice");
    const accepted = peerSends.filter((x) => x.result.startsWith("queued:")).map((x) => x.body);
    const refusedBodies = peerSends.filter((x) => !x.result.startsWith("queued:")).map((x) => x.body);
    const peerSeen = mailInCall(t.model.callsOf("alice").at(-1)).filter((m) => m.body.startsWith("P-bob-")).map((m) => m.body);
    const once = (want: string[], seen: string[]) => want.every((w) => seen.filter((x) => x === w).length === want.filter((x) => x === w).length);
    const claim = toolResultsSeen(t.model, "alice", "task_claim")[0] ?? "";
    const cut = (l: string | undefined) => (l ?? "(none)").replace(/^\d{4}-\S+ /, "").replace(/\/tmp\/[^ ]*\/(teammate|tasks)\/[0-9a-f]+\//g, "").slice(0, 150).replace(/\|/g, "\\|");
    const wantReports = Array.from({ length: REPORTS }, (_, k) => `R-alice-${k}`);
    recordFigures("corrupt-state", {
      order: 6,
      title: "Corrupted state while the team runs (case 6)",
      seconds: secondsSince(t0),
      lines: [
        `half a line in alice's outbox between her 3rd and 4th report: ${outboxNotes.length} note; reports delivered ${reports.length} of ${REPORTS}, each once: ${once(wantReports, reports)}`,
        `roster.json cut in half before bob mails alice: ${refused.length} of his ${PEERS - 2} peer sends refused until a roster change rewrote it${refused.length > 0 ? '; each answer says first that the roster could not be read' : ""}; no harness.log note (the leader never reads the roster)`,
        `half a line in alice's inbox: ${inboxNotes.length} note; bob's accepted messages delivered once each: ${once(accepted, peerSeen)} (${accepted.length} accepted, ${peerSeen.length} seen)`,
        `a garbage file among the claim intents: ${intentNotes.length} note, set aside to claims/invalid/; alice's claim answered: ${claim.startsWith("Claimed task corrupt-task")}`,
      ],
      table: [
        ["corruption", "note (excerpt)", "nothing else lost"],
        ["half line in outbox/alice.jsonl", cut(outboxNotes[0]), `${reports.length}/${REPORTS} reports, once each`],
        ["roster.json truncated to half", cut(refused[0]?.replace(/^.*\(the roster/, "the roster")), `${accepted.length} accepted sends delivered; ${refusedBodies.length} refused, never delivered`],
        ["half line in inbox/alice.jsonl", cut(inboxNotes[0]), `${peerSeen.length} peer messages seen, once each`],
        ["garbage claims/aaa-garbage.json", cut(intentNotes[0]), `claim answered: ${claim.split("\n")[0]}`],
      ],
    });

    expect(outboxNotes).toHaveLength(1);
    expect(outboxNotes[0]).toContain("skipped");
    expect([...reports].sort()).toEqual(wantReports);
    expect(inboxNotes).toHaveLength(1);
    expect(inboxNotes[0]).toContain("skipped");
    expect([...peerSeen].sort()).toEqual([...accepted].sort());
    expect(rosterCut.atSend.get(2), "roster.json still cut when bob sent right after cutting it").toBe(true);
    for (const k of cutSends) expect(firstRound[k], `send ${k}, made with the roster cut`).not.toMatch(/^queued:/);
    for (const k of wholeSends) expect(firstRound[k], `send ${k}, made after the roster was rewritten`).toMatch(/^queued:/);
    expect(refused.length).toBeGreaterThanOrEqual(Math.max(1, cutSends.length));
    for (const r of refused) expect(r).toMatch(/^send_message: the roster could not be read \(roster \S*roster\.json: not valid JSON/);
    expect(rosterNotes.filter((l) => !l.includes("queued"))).toEqual([]);
    expect(intentNotes).toHaveLength(1);
    expect(intentNotes[0]).toContain("set aside");
    expect(claim).toMatch(/^Claimed task corrupt-task:/);
  });
});
