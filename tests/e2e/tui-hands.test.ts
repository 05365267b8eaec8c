/**
 * Issue 21 scopes 1 and 2 on the real pi TUI, driven in tmux: the user's own hands on the team.
 * A message typed in the console (`s`, Pi's editor, Enter) reaches a working teammate's next
 * model request in the same run; `/agent-teams send` reaches an idle one's wake; neither makes a
 * leader model call, and both are Mail rows from `user`. `a` then `y` interrupts a teammate
 * whose model call hangs: the call is abandoned, the teammate is idle and alive, the leader is
 * not woken, and the interrupt is on the Mail page too.
 */
import { afterEach, describe, expect, it } from "vitest";
import { agentFile } from "../support/leader.ts";
import { contentText, type ModelCall } from "../support/scripted-model.ts";
import { isAlive, leaderCommands, spawnCall, waitUntil } from "../support/team.ts";
import { HAS_TMUX, keepCapture, startTuiTeam, type TuiTeam } from "../support/tmux.ts";

let team: TuiTeam | undefined;
afterEach(async () => {
  await team?.stop();
  team = undefined;
});

const holds = new Set<() => void>();
/** A model answer that never comes, until the test ends (the request stays pending). */
const forever = (): Promise<never> => new Promise<never>(() => undefined);
const said = (c: ModelCall, text: string): boolean => c.messages.some((m) => contentText(m.content ?? null).includes(text));

describe.skipIf(!HAS_TMUX)("the user's hands in the real TUI", () => {
  it("a console message steers a working teammate, /agent-teams send wakes an idle one, an interrupt leaves one idle and alive; no leader call, every action a Mail row", async () => {
    let releaseAda!: () => void;
    const adaMayGoOn = new Promise<void>((resolve) => (releaseAda = resolve));
    holds.add(releaseAda);
    team = await startTuiTeam({
      size: { columns: 120, rows: 36 },
      handler: async (c) => {
        if (c.agent === "leader") {
          const spawns = [spawnCall("ada", "worker", "Read notes.txt and wait."), spawnCall("bo", "worker"), spawnCall("cy", "worker", "Think hard.")];
          return leaderCommands({ SETUP: spawns }, { SETUP: "Team is up." })(c);
        }
        if (c.agent === "ada") {
          if (c.toolResults.length === 0) {
            await adaMayGoOn; // working, its model call pending, while the user types
            return { toolCalls: [{ name: "read", arguments: { path: "notes.txt" } }] };
          }
          return forever(); // the request after the tool result is what the test reads
        }
        return forever(); // bo's wake and cy's kickoff: never answered (cy is interrupted)
      },
      agents: { "worker.md": agentFile("worker", "You work.", { tools: "read" }) },
    });
    const { tui: t, model: m } = team;
    await waitUntil("the TUI to show the model", () => /scripted-1\s*$/m.test(t.screen()), 30_000);
    t.type("SETUP");
    await waitUntil("the spawns and the leader's answer", () => t.screen().includes("Team is up.") && m.callsOf("ada").length === 1 && m.callsOf("cy").length === 1, 30_000);
    const leaderCalls = m.callsOf("leader").length;

    t.type("/agent-teams");
    await waitUntil("the console with three teammates", () => /@ada\b.*working/.test(t.screen()) && /@bo\b.*idle/.test(t.screen()) && /@cy\b.*working/.test(t.screen()), 15_000);
    const select = async (name: string): Promise<void> => {
      t.keys("Home");
      for (let i = 0; i < 4 && !new RegExp(`▸ @${name}\\b`).test(t.screen()); i++) {
        await new Promise((r) => setTimeout(r, 150));
        if (!new RegExp(`▸ @${name}\\b`).test(t.screen())) t.keys("Down");
      }
      await waitUntil(`${name} selected`, () => new RegExp(`▸ @${name}\\b`).test(t.screen()), 5_000);
    };

    // s: a message to ada while her model call is pending.
    await select("ada");
    t.keys("s");
    await waitUntil("the composer", () => t.screen().includes("Message to @ada"), 5_000);
    t.literal("USER-MSG-ADA: keep the tests");
    await waitUntil("the typed text", () => t.screen().includes("USER-MSG-ADA: keep the tests"), 5_000);
    await keepCapture("composer", t.screen());
    t.keys("Enter");
    await waitUntil("the receipt", () => /@ada: steered/.test(t.screen()), 10_000);
    releaseAda();
    const adaNext = await m.waitForCall((c) => c.agent === "ada" && c.toolResults.length > 0, 20_000);
    expect(said(adaNext, "USER-MSG-ADA: keep the tests")).toBe(true);
    expect(said(adaNext, '<teammate-mail from="user">')).toBe(true);

    // a, y: cy's run is interrupted; its pending model call is abandoned.
    await select("cy");
    t.keys("a");
    await waitUntil("the y/n line", () => /Interrupt @cy's run/.test(t.screen()), 5_000);
    t.keys("y");
    await waitUntil("cy idle", () => /@cy interrupted/.test(t.screen()) && /@cy\b.*idle/.test(t.screen()), 20_000);
    t.keys("q");
    await waitUntil("the console to close", () => !/Tab page/.test(t.screen()), 5_000);

    // /agent-teams send: bo's wake.
    t.type("/agent-teams send bo USER-MSG-BO: start on the docs");
    const boWake = await m.waitForCall((c) => c.agent === "bo", 20_000);
    expect(said(boWake, "USER-MSG-BO: start on the docs")).toBe(true);
    await waitUntil("the send's notice", () => /@bo: queued/.test(t.screen()), 10_000);

    // Nothing of it started a leader turn; cy's process is alive; one model call each.
    await new Promise((r) => setTimeout(r, 1000));
    expect(m.callsOf("leader")).toHaveLength(leaderCalls);
    expect(m.callsOf("cy")).toHaveLength(1);
    const spawned = m.callsOf("leader").flatMap((c) => c.toolResults.map((r) => r.content)).join("\n");
    const cyPid = Number(/Spawned teammate cy [^\n]*?pid (\d+)\)/.exec(spawned)?.[1]);
    expect(cyPid, spawned).toBeGreaterThan(0);
    expect(isAlive(cyPid)).toBe(true);

    // The Mail page: both messages from user, and the interrupt's note.
    t.type("/agent-teams mail");
    await waitUntil("the Mail page", () => /\[Mail \d+\]/.test(t.screen()), 10_000);
    const mail = t.screen();
    await keepCapture("mail-user", mail);
    expect(mail).toMatch(/user\s*→\s*ada.*steered/);
    expect(mail).toMatch(/user\s*→\s*bo/);
    expect(mail).toMatch(/run interrupted by the user/);
    for (const release of holds) release();
  }, 180_000);

  it("a task added from the Board page is claimed; offering a task to a chosen teammate wakes that one and no other; both are Mail rows", async () => {
    const notices = (c: ModelCall): string => c.messages.map((x) => contentText(x.content ?? null)).filter((t) => t.includes("Board notice")).join("\n");
    team = await startTuiTeam({
      size: { columns: 120, rows: 36 },
      handler: (c) => {
        if (c.agent === "leader") return leaderCommands({ SETUP: [spawnCall("ana", "worker"), spawnCall("ben", "worker")] }, { SETUP: "Team is up." })(c);
        const result = c.toolResults[0]?.content ?? "";
        const claimed = /^Claimed task ([a-z0-9-]+)/.exec(result)?.[1];
        if (claimed) return { toolCalls: [{ name: "task_submit", arguments: { taskId: claimed, status: "completed", result: "done" } }] };
        if (result) return { text: "Done." };
        // Claim only what the user made for claiming, and what the user offered to this one by hand.
        const last = contentText(c.messages.at(-1)?.content ?? null);
        const id = /- `(claim-me[a-z0-9-]*)`/.exec(last)?.[1];
        if (id) return { toolCalls: [{ name: "task_claim", arguments: { taskId: id } }] };
        return { text: "Not for me." };
      },
      agents: { "worker.md": agentFile("worker", "You work.", { tools: "read" }) },
    });
    const { tui: t, model: m } = team;
    await waitUntil("the TUI to show the model", () => /scripted-1\s*$/m.test(t.screen()), 30_000);
    t.type("SETUP");
    await waitUntil("the spawns", () => t.screen().includes("Team is up."), 30_000);
    t.type("/agent-teams board");
    await waitUntil("the Board page", () => /\[Board 0\]/.test(t.screen()), 10_000);

    // n: a task through the form (Enter moves field by field and adds on the last).
    const addTask = async (subject: string): Promise<void> => {
      t.keys("n");
      await waitUntil("the form", () => t.screen().includes("New task"), 5_000);
      t.literal(subject);
      await waitUntil("the typed subject", () => t.screen().includes(subject), 5_000);
      await keepCapture("board-form", t.screen());
      for (let i = 0; i < 6; i++) t.keys("Enter");
      await waitUntil(`the board's answer for ${subject}`, () => /Created task/.test(t.screen()), 10_000);
    };
    await addTask("CLAIM-ME write the notes");
    await waitUntil("a teammate claimed and completed it", () => m.calls.some((c) => c.toolResults.some((r) => r.content.startsWith("Claimed task claim-me-write-the-notes"))), 30_000);
    await waitUntil("its row completed", () => /#claim-me-write-the-notes\b.*completed/.test(t.screen()), 15_000);

    await addTask("Later work");
    await waitUntil("both teammates passed over it", () => ["ana", "ben"].every((n) => m.callsOf(n).some((c) => notices(c).includes("later-work"))), 30_000);
    await new Promise((r) => setTimeout(r, 500)); // their runs settle
    const anaCalls = m.callsOf("ana").length;
    const benCalls = m.callsOf("ben").length;

    // o: offer it to ben by hand; ←/→ picks him.
    t.keys("Home");
    for (let i = 0; i < 3 && !/▸ #later-work/.test(t.screen()); i++) {
      t.keys("Down");
      await new Promise((r) => setTimeout(r, 150));
    }
    await waitUntil("later-work selected", () => /▸ #later-work/.test(t.screen()), 5_000);
    t.keys("o");
    await waitUntil("the offer line", () => /Offer #later-work to:/.test(t.screen()), 5_000);
    // The chosen one is drawn inverse, which a capture does not show: move by position, from the first.
    const offerLine = t.screen().split("\n").find((l) => l.includes("Offer #later-work")) ?? "";
    const order = [...offerLine.matchAll(/@([a-z]+)/g)].map((x) => x[1]);
    expect(order).toEqual(expect.arrayContaining(["ana", "ben"]));
    for (let i = 0; i < order.indexOf("ben"); i++) t.keys("Right");
    t.keys("Enter");
    await waitUntil("the offer's answer", () => /Offered `?later-work`? to @ben/.test(t.screen()), 10_000);
    const benWake = await m.waitForCall((c) => c.agent === "ben" && m.callsOf("ben").indexOf(c) >= benCalls && notices(c).includes("later-work"), 20_000);
    expect(benWake).toBeDefined();
    await new Promise((r) => setTimeout(r, 1000));
    expect(m.callsOf("ana")).toHaveLength(anaCalls);

    t.keys("Tab"); // Mail
    await waitUntil("the Mail page", () => /\[Mail \d+\]/.test(t.screen()), 10_000);
    const mail = t.screen();
    expect(mail).toMatch(/user\s*→\s*task-board\s+task_create/);
    expect(mail).toMatch(/user\s*→\s*task-board\s+offer `later-work` to @ben/);
  }, 180_000);
});
