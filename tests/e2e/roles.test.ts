/**
 * Issue 7 acceptance, roles, tool grants and model checks of `teammate_spawn`, on the real pi CLI:
 * - A session role (inline `definition`) spawns; a second inline definition of that name (as a
 *   JSON string) replaces it; one with `persist: "project"` writes `.pi/agents/<agent>.md`, after
 *   which an inline definition of that name is refused and the file role spawns.
 * - An inline definition for a name a definition file defines is refused naming the file.
 * - An unknown tool id (a role file's `mcp_foo`, an inline `gerp`) is refused naming it and
 *   listing the known tools, before any process or worktree exists.
 * - An unknown pinned model is refused naming it with close matches, before any process exists;
 *   `/agent-teams model` sets, refuses and clears the team default, which the spawn result, the
 *   roster, the child's `--model` flag and `task_list` show.
 * - The effective tool grant is in roster.json before the teammate's first wake.
 * - Issue 18.5: an alias-bomb file in `.pi/agents/` is refused by name; the leader's role guidance
 *   still lists the other role, and spawning it works.
 */
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { parseAgentFile } from "../../src/agents/parse.ts";
import { aliasBomb } from "../support/alias-bomb.ts";
import { agentFile } from "../support/leader.ts";
import type { ReplyToolCall } from "../support/scripted-model.ts";
import { callText, leaderCommands, readRoster, runForToolEnd, startTeam, waitUntil, type AgentScript, type Team, type ToolEnd } from "../support/team.ts";

const TEAM_TOOLS = ["send_message", "task_list", "task_claim", "task_submit"];

let team: Team | undefined;
afterEach(async () => {
  await team?.stop();
  team = undefined;
});

/** `teammate_spawn` with any extra arguments (prompt, definition, resources). */
const spawn = (name: string, agent: string, extra: Record<string, unknown> = {}): ReplyToolCall => ({ name: "teammate_spawn", arguments: { name, agent, ...extra } });

/** Answers its kickoff with a terminal report, anything else with a short text. */
const reporter: AgentScript = (c) =>
  c.toolResults.length === 0 && !c.lastUser.includes("<harness-reminder>")
    ? { toolCalls: [{ name: "send_message", arguments: { to: "leader", message: "here", status: "completed" } }] }
    : { text: "ok" };

/** A refused spawn: an error result and no process. */
function expectRefused(end: ToolEnd): void {
  expect(end.isError).toBe(true);
  expect(end.details.pid).toBeUndefined();
}

/** Names in roster.json (none when it does not exist yet). */
async function rosterNames(t: Team): Promise<string[]> {
  return ((await readRoster(t.runtimeDir))?.teammates ?? []).map((m) => m.name);
}

/**
 * Makes Pi's own default, for pi processes started from now on (the teammates), the model
 * `scripted/scripted-alt`, so a teammate's requests show whether it got a `--model` flag. (The
 * command line cannot show it: pi sets its process title, which overwrites /proc/<pid>/cmdline.)
 */
async function piDefaultElsewhere(agentDir: string): Promise<void> {
  const models = JSON.parse(await readFile(join(agentDir, "models.json"), "utf8")) as { providers: Record<string, { models: { id: string; name: string }[] }> };
  const scripted = models.providers["scripted"]!;
  scripted.models.push({ ...scripted.models[0]!, id: "scripted-alt", name: "Scripted Alt" });
  await writeFile(join(agentDir, "models.json"), JSON.stringify(models, null, 2));
  const settings = JSON.parse(await readFile(join(agentDir, "settings.json"), "utf8")) as Record<string, unknown>;
  await writeFile(join(agentDir, "settings.json"), JSON.stringify({ ...settings, defaultModel: "scripted-alt" }, null, 2));
}

/** Texts (and types) of the leader's `notify` UI requests so far. */
function notices(t: Team): { message: string; type: string | undefined }[] {
  return t.leader.proc.child.uiRequests.flatMap((r) => (r.request.method === "notify" ? [{ message: r.request.message, type: r.request.notifyType }] : []));
}

/** Runs a slash command through an RPC prompt and returns the notice it showed. */
async function command(t: Team, text: string): Promise<{ message: string; type: string | undefined }> {
  const before = notices(t).length;
  await t.leader.proc.child.prompt(text, { streamingBehavior: "followUp" });
  await waitUntil(`the notice of ${text}`, () => notices(t).length > before);
  return notices(t)[before]!;
}

describe("session roles", () => {
  it("an inline role spawns, a second inline definition replaces it, and persist writes a file that then wins", async () => {
    const scout = (v: number) => ({ description: "Scouts the code.", tools: "read", prompt: `You are scout v${v}.` });
    team = await startTeam({
      agents: {},
      scripts: {
        leader: leaderCommands({
          ANN: [spawn("ann", "scout", { prompt: "HELLO", definition: scout(1) })],
          STOP: [{ name: "teammate_shutdown", arguments: { name: "ann" } }],
          BOB: [spawn("bob", "scout", { prompt: "HELLO", definition: JSON.stringify(scout(2)) })],
          CAT: [spawn("cat", "keeper", { prompt: "HELLO", definition: { description: "Keeps notes.", tools: "read", prompt: "You are the keeper.", persist: "project" } })],
          DAN: [spawn("dan", "keeper", { prompt: "HELLO", definition: { prompt: "You are an impostor." } })],
          EVE: [spawn("eve", "keeper", { prompt: "HELLO" })],
        }),
        ann: reporter, bob: reporter, cat: reporter, dan: reporter, eve: reporter,
      },
    });
    const t = team;
    const reports = (n: number) => waitUntil(`${n} reports`, () => t.leader.customMessages("teammate-report").length >= n, 30_000);

    const ann = await runForToolEnd(t, "ANN", "teammate_spawn");
    expect(ann).toMatchObject({ isError: false, details: { agent: "scout", scope: "session", tools: ["read", ...TEAM_TOOLS] } });
    expect(ann.text).toContain("Its role is a session role (in memory only).");
    await reports(1);
    expect(callText(t.model.callsOf("ann")[0]!)).toContain("You are scout v1.");
    expect((await runForToolEnd(t, "STOP", "teammate_shutdown")).isError).toBe(false);

    const bob = await runForToolEnd(t, "BOB", "teammate_spawn");
    expect(bob).toMatchObject({ isError: false, details: { agent: "scout", scope: "session" } });
    await reports(2);
    const bobFirst = callText(t.model.callsOf("bob")[0]!);
    expect(bobFirst).toContain("You are scout v2.");
    expect(bobFirst).not.toContain("You are scout v1.");

    const file = join(t.env.cwd, ".pi", "agents", "keeper.md");
    expect(existsSync(file)).toBe(false);
    const cat = await runForToolEnd(t, "CAT", "teammate_spawn");
    expect(cat).toMatchObject({ isError: false, details: { agent: "keeper", scope: "project", persisted: file } });
    expect(cat.text).toContain(`Its role was written to ${file}.`);
    const written = await readFile(file, "utf8");
    const parsed = parseAgentFile({ text: written, source: file, name: "keeper", scope: "project" });
    expect(parsed.ok).toBe(true);
    if (parsed.ok) expect(parsed.agent).toMatchObject({ name: "keeper", description: "Keeps notes.", tools: ["read"], prompt: expect.stringContaining("You are the keeper.") });
    await reports(3);
    expect(callText(t.model.callsOf("cat")[0]!)).toContain("You are the keeper.");

    const dan = await runForToolEnd(t, "DAN", "teammate_spawn");
    expectRefused(dan);
    expect(dan.text).toContain(`Agent "keeper" is already defined by ${file} (project scope)`);
    expect(await readFile(file, "utf8")).toBe(written);
    expect(await rosterNames(t)).not.toContain("dan");

    const eve = await runForToolEnd(t, "EVE", "teammate_spawn");
    expect(eve).toMatchObject({ isError: false, details: { agent: "keeper", scope: "project" } });
    await reports(4);
    expect(callText(t.model.callsOf("eve")[0]!)).toContain("You are the keeper.");
    expect(t.model.callsOf("dan")).toEqual([]);
  });

  it("an inline definition for a name a file defines is refused naming the file, and starts nothing", async () => {
    team = await startTeam({
      agents: { "worker.md": agentFile("worker", "You are a worker.", { tools: "read" }) },
      scripts: { leader: leaderCommands({ ZED: [spawn("zed", "worker", { prompt: "HELLO", definition: { prompt: "You are a rogue worker." } })] }) },
    });
    const zed = await runForToolEnd(team, "ZED", "teammate_spawn");
    expectRefused(zed);
    expect(zed.text).toContain(`Agent "worker" is already defined by ${join(team.env.cwd, ".pi", "agents", "worker.md")} (project scope)`);
    expect(zed.text).toContain('spawn with agent: "worker" and no definition');
    expect(team.pids.size).toBe(0);
    expect(await rosterNames(team)).not.toContain("zed");
    expect(team.model.callsOf("zed")).toEqual([]);
  });
});

describe("tool grants", () => {
  it("an unknown tool id (a file's mcp_foo, an inline gerp) starts no process and no worktree", async () => {
    team = await startTeam({
      agents: { "scanner.md": agentFile("scanner", "You scan.", { tools: "read, mcp_foo", worktree: "true" }) },
      scripts: {
        leader: leaderCommands({
          SAM: [spawn("sam", "scanner", { prompt: "HELLO" })],
          TIA: [spawn("tia", "finder", { prompt: "HELLO", definition: { tools: "gerp", prompt: "You find things." } })],
          UMA: [spawn("uma", "finder", { prompt: "HELLO" })],
        }),
      },
    });
    const t = team;
    const sam = await runForToolEnd(t, "SAM", "teammate_spawn");
    expectRefused(sam);
    expect(sam.text).toContain(`agent "scanner" (${join(t.env.cwd, ".pi", "agents", "scanner.md")}): Unknown tool "mcp_foo" in the role's tools field.`);
    expect(sam.text).toContain("Known tools: read, bash, powershell, edit, write, grep, find, ls.");
    expect(existsSync(join(t.env.agentDir, "worktrees"))).toBe(false);
    expect(execFileSync("git", ["branch", "--list", "pi-team/*"], { cwd: t.env.cwd, encoding: "utf8" })).toBe("");

    const tia = await runForToolEnd(t, "TIA", "teammate_spawn");
    expectRefused(tia);
    expect(tia.text).toContain('Unknown tool "gerp" (did you mean "grep"?)');
    expect(tia.text).toContain("Known tools: read, bash, powershell, edit, write, grep, find, ls.");
    // The refused inline role was not registered either.
    const uma = await runForToolEnd(t, "UMA", "teammate_spawn");
    expectRefused(uma);
    expect(uma.text).toContain("To spawn a role no file defines, pass `definition`");

    expect(t.pids.size).toBe(0);
    expect(await rosterNames(t)).toEqual([]);
    expect(t.model.calls.filter((c) => c.agent !== "leader")).toEqual([]);
  });

  it("the effective grant is in roster.json before the first wake", async () => {
    team = await startTeam({
      agents: { "reader.md": agentFile("reader", "You read.", { tools: "read, grep" }) },
      scripts: { leader: leaderCommands({ SPAWN: [spawn("rita", "reader")], WAKE: [{ name: "send_message", arguments: { to: "rita", message: "Say hello." } }] }), rita: reporter },
    });
    const t = team;
    const rita = await runForToolEnd(t, "SPAWN", "teammate_spawn");
    const grant = ["read", "grep", ...TEAM_TOOLS];
    expect(rita).toMatchObject({ isError: false, details: { tools: grant, kickoff: false } });
    const entry = (await readRoster(t.runtimeDir))?.teammates.find((m) => m.name === "rita") as { tools?: string[]; pid?: number } | undefined;
    expect(entry).toMatchObject({ tools: grant, pid: rita.details.pid });
    await t.run("PING"); // a barrier: the leader's next turn
    expect(t.model.calls.filter((c) => c.agent !== "leader")).toEqual([]);
    // Woken, rita is offered exactly the tools the roster announced.
    await t.run("WAKE");
    const first = await t.model.waitForCall((c) => c.agent === "rita");
    expect([...first.tools].sort()).toEqual([...grant].sort());
  });
});

describe("model checks", () => {
  it("an unknown pinned model starts nothing; /agent-teams model sets, refuses and clears the team default", async () => {
    team = await startTeam({
      agents: {
        "pinned.md": agentFile("pinned", "You are pinned.", { tools: "read", model: "scripted/scripted-2" }),
        "plain.md": agentFile("plain", "You are plain.", { tools: "read" }),
      },
      scripts: {
        leader: leaderCommands({
          PIN: [spawn("pia", "pinned", { prompt: "HELLO" })],
          PAT: [spawn("pat", "plain", { prompt: "HELLO" })],
          PAM: [spawn("pam", "plain", { prompt: "HELLO" })],
          LIST: [{ name: "task_list", arguments: {} }],
        }),
        pat: reporter, pam: reporter,
      },
    });
    const t = team;
    await piDefaultElsewhere(t.env.agentDir);
    const reports = (n: number) => waitUntil(`${n} reports`, () => t.leader.customMessages("teammate-report").length >= n, 30_000);
    const pin = await runForToolEnd(t, "PIN", "teammate_spawn");
    expectRefused(pin);
    expect(pin.text).toContain('Model "scripted/scripted-2" is not in Pi\'s model registry. Close matches: scripted/scripted-1');
    expect(await rosterNames(t)).toEqual([]);
    expect(t.model.callsOf("pia")).toEqual([]);
    expect((await runForToolEnd(t, "LIST", "task_list")).text).toContain("team model: Pi default");

    expect(await command(t, "/agent-teams model scripted/scripted-1")).toEqual({ message: "team model: scripted/scripted-1 (set for this session)", type: "info" });
    const pat = await runForToolEnd(t, "PAT", "teammate_spawn");
    expect(pat).toMatchObject({ isError: false, details: { model: "scripted/scripted-1 (team-default)" } });
    expect(pat.text).toContain("model scripted/scripted-1 (team-default)");
    await reports(1);
    expect(t.model.callsOf("pat")[0]!.model).toBe("scripted-1"); // --model, not Pi's default
    const entry = (await readRoster(t.runtimeDir))?.teammates.find((m) => m.name === "pat") as { model?: string } | undefined;
    expect(entry?.model).toBe("scripted/scripted-1 (team-default)");

    const nope = await command(t, "/agent-teams model nope/nope");
    expect(nope.type).toBe("error");
    expect(nope.message).toContain('Model "nope/nope" is not in Pi\'s model registry.');
    expect((await runForToolEnd(t, "LIST", "task_list")).text).toContain("team model: scripted/scripted-1 (set for this session)");

    expect(await command(t, "/agent-teams model default")).toEqual({ message: "team model: Pi default", type: "info" });
    expect((await runForToolEnd(t, "LIST", "task_list")).text).toContain("team model: Pi default");
    const pam = await runForToolEnd(t, "PAM", "teammate_spawn");
    expect(pam).toMatchObject({ isError: false, details: { model: "Pi default (pi-default)" } });
    expect(pam.text).toContain("model Pi default (pi-default)");
    await reports(2);
    expect(t.model.callsOf("pam")[0]!.model).toBe("scripted-alt"); // no --model: Pi's default
  });
});

describe("hostile agent files (issue 18.5)", () => {
  it("with an alias-bomb file in .pi/agents, the leader starts, lists the other role and spawns it", async () => {
    team = await startTeam({
      agents: { "bomb.md": aliasBomb(), "worker.md": agentFile("worker", "You are a worker.", { tools: "read" }) },
      scripts: { leader: leaderCommands({ WIN: [spawn("win", "worker", { prompt: "HELLO" })], BOOM: [spawn("bo", "bomb", { prompt: "HELLO" })] }), win: reporter },
    });
    const t = team;
    const win = await runForToolEnd(t, "WIN", "teammate_spawn");
    expect(win).toMatchObject({ isError: false, details: { agent: "worker", scope: "project" } });
    const leaderSystem = t.model.callsOf("leader")[0]!.system;
    expect(leaderSystem).toContain("- worker (project scope");
    expect(leaderSystem).not.toContain("- bomb (");
    // The skip line is file-derived text (a parser error may quote the file): quoted, one line, capped.
    expect(leaderSystem).toMatch(/^- skipped: ".*bomb\.md: frontmatter expands to more than 1000 values.*"$/m);
    await waitUntil("win's report", () => t.leader.customMessages("teammate-report").length >= 1, 30_000);
    expect(callText(t.model.callsOf("win")[0]!)).toContain("You are a worker.");

    const boom = await runForToolEnd(t, "BOOM", "teammate_spawn");
    expectRefused(boom);
    expect(boom.text).toContain(`${join(t.env.cwd, ".pi", "agents", "bomb.md")}: frontmatter expands to more than 1000 values`);
    expect(t.model.callsOf("bo")).toEqual([]);
  });
});
