/**
 * Issue 7 acceptance, edit guards of shared-tree teammates, on the real pi CLI with real files:
 * - Two teammates racing to `write` the same file lose no edit: the one writing from a stale read
 *   is blocked ("changed on disk since you last read or wrote it"), re-reads, and then passes;
 *   a `write` over an existing file never read is blocked ("you have not read it").
 * - An `edit` into a resource another teammate holds for its direct assignment is blocked naming
 *   the holder and suggesting send_message; the file is unchanged; edits outside the resource,
 *   and the holder's own edits inside it, pass; roster.json shows the holding.
 * - The same with a board claim: a `write` of a new file under a claimed task's resource is
 *   blocked naming the holder and the task id.
 * - A hard link to a file another teammate holds (made by the test, as a peer with bash could)
 *   does not carry a write-only teammate's `write` past the guard (issue 18): it is blocked as a
 *   file with 2 hard links and the held file is unchanged.
 */
import { readFileSync } from "node:fs";
import { link, mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { agentFile } from "../support/leader.ts";
import type { ModelCall, Reply, ReplyToolCall } from "../support/scripted-model.ts";
import { boardWorker, create, holderName, spawnIdle, startBoardTeam, taskOf, toolResultsSeen, type BoardTeam } from "../support/board.ts";
import { leaderCommands, readRoster, spawnCall, startTeam, waitUntil, type AgentScript, type Team } from "../support/team.ts";

const AGENTS = {
  "editor.md": agentFile("editor", "You edit files.", { tools: "read, write, edit" }),
  "writer.md": agentFile("writer", "You write files.", { tools: "read, write" }),
};
const STALE = "changed on disk since you last read or wrote it";
const LOGIN = "export function login(user) {\n  return check(user, TOKEN);\n}\n";
/** The leader's spawn of alice holding `src/auth` for her direct assignment. */
const ALICE_HOLDS_AUTH: ReplyToolCall = { name: "teammate_spawn", arguments: { name: "alice", agent: "editor", prompt: "Own the auth code.", resources: ["src/auth"] } };
const NEVER_READ = "you have not read it";

let team: Team | BoardTeam | undefined;
afterEach(async () => {
  await team?.stop();
  team = undefined;
});

type Step = (c: ModelCall) => Reply | Promise<Reply>;

/** Plays `steps` in order, one per model call of the agent; then answers "ok". */
function steps(...list: Step[]): AgentScript {
  let i = 0;
  return (c) => (list[i++] ?? (() => ({ text: "ok" })))(c);
}

const tool = (name: string, args: Record<string, unknown>, id?: string): Reply => ({ toolCalls: [{ name, arguments: args, ...(id ? { id } : {}) }] });
const read = (path: string): Reply => tool("read", { path });
const write = (path: string, content: string): Reply => tool("write", { path, content });
const edit = (path: string, oldText: string, newText: string, id?: string): ReplyToolCall => ({ name: "edit", arguments: { path, edits: [{ oldText, newText }] }, ...(id ? { id } : {}) });
const report = (message: string): Reply => tool("send_message", { to: "leader", message, status: "completed" });

/** roster.json `holds` of teammate `name` (undefined when it has no entry). */
async function holdsOf(runtimeDir: string, name: string): Promise<unknown> {
  const roster = (await readRoster(runtimeDir)) as { teammates: { name: string; holds?: unknown }[] } | undefined;
  return roster?.teammates.find((t) => t.name === name)?.holds;
}

describe("stale-write guard", () => {
  it("two teammates racing to write one file lose no edit; a write over a never-read file is blocked", async () => {
    const BASE = "base\n";
    let bobRead = false;
    team = await startTeam({ agents: AGENTS, scripts: { leader: leaderCommands({ GO: [spawnCall("alice", "editor", "RACE"), spawnCall("bob", "editor", "RACE")] }) } });
    const t = team;
    const file = join(t.env.cwd, "shared.txt");
    await writeFile(file, BASE);
    await writeFile(join(t.env.cwd, "notes.txt"), "nobody read me\n");
    t.script("alice", steps(
      () => read("shared.txt"),
      async () => {
        // Both have read the base version before anyone writes.
        await waitUntil("bob's read of shared.txt", () => bobRead, 30_000);
        return write("shared.txt", `${BASE}alice line\n`);
      },
      () => write("notes.txt", "overwritten blind\n"),
      () => report("alice done"),
    ));
    t.script("bob", steps(
      () => read("shared.txt"),
      async () => {
        bobRead = true;
        await waitUntil("alice's write to land", () => readFileSync(file, "utf8").includes("alice line"), 30_000);
        return write("shared.txt", `${BASE}bob line\n`); // from the stale read
      },
      () => read("shared.txt"),
      (c) => write("shared.txt", `${c.toolResults[0]!.content.replace(/\n*$/, "\n")}bob line\n`),
      () => report("bob done"),
    ));
    await t.run("GO");
    await waitUntil("both reports", () => t.leader.customMessages("teammate-report").length >= 2, 60_000);

    const alice = toolResultsSeen(t.model, "alice", "write");
    const bob = toolResultsSeen(t.model, "bob", "write");
    expect(alice).toHaveLength(2);
    expect(alice[0]).toMatch(/^Successfully wrote/);
    expect(alice[1]).toContain(`write blocked: notes.txt already exists and ${NEVER_READ}`);
    expect(await readFile(join(t.env.cwd, "notes.txt"), "utf8")).toBe("nobody read me\n");

    expect(bob).toHaveLength(2);
    expect(bob[0]).toContain(`write blocked: shared.txt ${STALE}`);
    expect(bob[0]).toContain("Re-read it first");
    expect(bob[1]).toMatch(/^Successfully wrote/);
    // bob's re-read showed alice's line: the blocked write left the file as alice wrote it.
    expect(toolResultsSeen(t.model, "bob", "read")[1]).toContain("alice line");
    expect(await readFile(file, "utf8")).toBe(`${BASE}alice line\nbob line\n`);
  });
});

describe("resource guard, direct assignment", () => {
  it("an edit into a resource alice holds is blocked naming her; outside it and alice's own edit pass", async () => {
    const OTHER = "export const other = 1;\n";
    let bobDone = false;
    let loginAfterBob = "";
    team = await startTeam({
      agents: AGENTS,
      scripts: {
        leader: leaderCommands({
          ALICE: [ALICE_HOLDS_AUTH],
          BOB: [spawnCall("bob", "editor", "Fix the token.")],
        }),
        alice: steps(
          async () => {
            await waitUntil("bob's attempts", () => bobDone, 60_000);
            return { toolCalls: [edit("src/auth/login.js", "login(user)", "login(user, opts)")] };
          },
          () => report("auth done"),
        ),
        bob: steps(
          () => ({ toolCalls: [edit("src/auth/login.js", "TOKEN", "BOB_TOKEN", "bob_auth"), edit("src/other.js", "= 1", "= 2", "bob_other")] }),
          () => {
            loginAfterBob = readFileSync(join(team!.env.cwd, "src/auth/login.js"), "utf8");
            bobDone = true;
            return report("tried");
          },
        ),
      },
    });
    const t = team;
    await mkdir(join(t.env.cwd, "src", "auth"), { recursive: true });
    await writeFile(join(t.env.cwd, "src/auth/login.js"), LOGIN);
    await writeFile(join(t.env.cwd, "src/other.js"), OTHER);

    await t.run("ALICE");
    expect(t.toolEnds("teammate_spawn")[0]).toMatchObject({ isError: false });
    expect(await holdsOf(t.runtimeDir, "alice")).toEqual([{ tag: "src/auth" }]);

    await t.run("BOB");
    await waitUntil("both reports", () => t.leader.customMessages("teammate-report").length >= 2, 60_000);

    const bobCall = t.model.callsOf("bob")[1]!;
    const auth = bobCall.toolResults.find((r) => r.id === "bob_auth")!.content;
    const other = bobCall.toolResults.find((r) => r.id === "bob_other")!.content;
    expect(auth).toContain('edit blocked: src/auth/login.js is inside resource "src/auth", which teammate "alice" holds for its direct assignment.');
    expect(auth).toContain('send_message to "alice"');
    expect(loginAfterBob).toBe(LOGIN);
    expect(other).toMatch(/^Successfully replaced/);
    expect(await readFile(join(t.env.cwd, "src/other.js"), "utf8")).toBe("export const other = 2;\n");

    const [aliceEdit] = toolResultsSeen(t.model, "alice", "edit");
    expect(aliceEdit).toMatch(/^Successfully replaced/);
    expect(await readFile(join(t.env.cwd, "src/auth/login.js"), "utf8")).toBe(LOGIN.replace("login(user)", "login(user, opts)"));
    // The terminal report closed alice's assignment: she holds nothing any more.
    await waitUntil("alice's holding to be released", async () => {
      const holds = await holdsOf(t.runtimeDir, "alice");
      return Array.isArray(holds) && holds.length === 0;
    });
  });
});

describe("resource guard, board claim", () => {
  it("a write of a new file under a claimed task's resource is blocked naming the holder and the task", async () => {
    const TASK = "write-the-docs";
    const bt = await startBoardTeam({
      agents: AGENTS,
      scripts: {
        leader: leaderCommands({
          SPAWN: [spawnIdle("alice", "editor")],
          CREATE: [create({ subject: "Write the docs", resources: ["docs"] })],
          BOB: [spawnCall("bob", "editor", "WRITE-DOCS")],
        }),
        alice: boardWorker({ claimNotices: true }), // claims and keeps the claim
        bob: (c) => {
          if (c.toolResults.length > 0) return c.toolResults[0]!.content.includes("blocked") ? report("blocked") : { text: "ok" };
          return c.lastUser.includes("WRITE-DOCS") ? write("docs/x.md", "# x\n") : { text: "ok" };
        },
      },
    });
    team = bt;
    await bt.run("SPAWN");
    await bt.run("CREATE");
    await bt.waitBoard((f) => taskOf(f, TASK)?.state.status === "claimed" && holderName(taskOf(f, TASK)) === "alice");
    await waitUntil("alice's claim in the roster", async () => JSON.stringify(await holdsOf(bt.runtimeDir, "alice")) === JSON.stringify([{ tag: "docs", taskId: TASK }]));

    await bt.run("BOB");
    await bt.model.waitForCall((c) => c.agent === "bob" && c.toolResults.length > 0, 30_000);
    const [blocked] = toolResultsSeen(bt.model, "bob", "write");
    expect(blocked).toBe(
      `write blocked: docs/x.md is inside resource "docs", which teammate "alice" holds for task ${TASK}. ` +
        `Coordinate first: send_message to "alice" (ask it to make the change, or to tell you when it is done), ` +
        `or wait until "alice" releases "docs". Do not work around this with bash or another tool.`,
    );
    await expect(readFile(join(bt.env.cwd, "docs/x.md"), "utf8")).rejects.toMatchObject({ code: "ENOENT" });
  });
});

describe("resource guard, hard link", () => {
  it("a write-only teammate's write through a hard link to a file alice holds is refused; the file is unchanged", async () => {
    team = await startTeam({
      agents: AGENTS,
      scripts: {
        leader: leaderCommands({
          ALICE: [ALICE_HOLDS_AUTH],
          BOB: [spawnCall("bob", "writer", "Fix the token.")],
        }),
        alice: () => ({ text: "holding src/auth" }),
        bob: steps(
          () => read("free/login.js"),
          () => write("free/login.js", "export const pwned = true;\n"),
          () => report("tried"),
        ),
      },
    });
    const t = team;
    await mkdir(join(t.env.cwd, "src", "auth"), { recursive: true });
    await mkdir(join(t.env.cwd, "free"));
    const held = join(t.env.cwd, "src/auth/login.js");
    await writeFile(held, LOGIN);
    await link(held, join(t.env.cwd, "free/login.js")); // a peer with bash could make it

    await t.run("ALICE");
    expect(await holdsOf(t.runtimeDir, "alice")).toEqual([{ tag: "src/auth" }]);
    await t.run("BOB");
    await waitUntil("bob's report", () => t.leader.customMessages("teammate-report").some((m) => JSON.stringify(m).includes("tried")), 60_000);

    const [written] = toolResultsSeen(t.model, "bob", "write");
    expect(written).toBe(
      "write blocked: free/login.js has 2 hard links, so the same file also exists under another name (a resource another teammate holds, the team's state, another tree), " +
        "and a change here would change it there without the edit guards seeing it. Nothing was changed. " +
        "Write your change to a new file, or tell the leader (send_message) which file needs it. Do not work around this with bash or another tool.",
    );
    expect(await readFile(held, "utf8")).toBe(LOGIN);
  });
});
