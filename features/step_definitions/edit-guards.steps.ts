/**
 * Steps of features/edit-guards.feature: a temp project dir, a real roster.json in a temp
 * runtime dir, a temp board dir, and the real registerEditGuards on a fake `pi` whose
 * read/write/edit stand-ins run on the real file system (tests/support/fake-pi.ts). A worktree
 * teammate's tools run in a temp worktree dir beside the project.
 */
import assert from "node:assert/strict";
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { After, Given, Then, When } from "@cucumber/cucumber";
import type { RosterFile } from "../../src/mail/index.ts";
import { registerEditGuards } from "../../src/worker/edit-guards.ts";
import { createFakePi, FakeFileTools, makeGuardDirs, type FakePi, type ToolOutcome } from "../../tests/support/fake-pi.ts";

interface GuardScene {
  root: string;
  project: string;
  runtimeDir: string;
  boardDir: string;
  /** Set once the teammate runs in its own worktree. */
  worktree?: string;
  roster: RosterFile;
  fake: FakePi;
  tools: FakeFileTools;
  off?: () => void;
  outcomes: ToolOutcome[];
}

function scene(world: object): GuardScene {
  const s = (world as { editGuards?: GuardScene }).editGuards;
  assert.ok(s, 'no project yet: start with "a shared project with teammates ..."');
  return s;
}

const last = (s: GuardScene): ToolOutcome => {
  const outcome = s.outcomes.at(-1);
  assert.ok(outcome, "no tool call was made");
  return outcome;
};

const writeRoster = (s: GuardScene) => writeFile(join(s.runtimeDir, "roster.json"), JSON.stringify(s.roster));

function entry(s: GuardScene, name: string): RosterFile["teammates"][number] {
  const found = s.roster.teammates.find((t) => t.name === name);
  assert.ok(found, `no teammate "${name}" in the roster`);
  return found;
}

function register(s: GuardScene, name: string, worktree?: string): void {
  s.off?.();
  const where = worktree ? { worktree, project: s.project } : {};
  s.off = registerEditGuards(s.fake.pi, { name, runtimeDir: s.runtimeDir, boardDir: s.boardDir, ...where }, { note: () => {}, agentDir: agentDirOf(s) });
}

/** The scene's stand-in for the user's Pi agent dir (never the real one). */
const agentDirOf = (s: GuardScene): string => join(s.root, "agent");

const lines = (n: number): string => Array.from({ length: n }, (_, i) => `line ${i + 1}`).join("\n");

After({ tags: "@edit-guards" }, async function () {
  const s = (this as { editGuards?: GuardScene }).editGuards;
  s?.off?.();
  if (s !== undefined) await rm(s.root, { recursive: true, force: true });
});

Given("a shared project with teammates {string}", async function (names: string) {
  const root = await mkdtemp(join(tmpdir(), "feature-edit-guards-"));
  const { project, runtimeDir, boardDir } = await makeGuardDirs(root);
  const teammates = names.split(",").map((n, i) => ({ name: n.trim(), agent: "worker", spawnId: `s-${i + 1}`, status: "working" as const, tools: ["read", "edit", "write"] }));
  const fake = createFakePi();
  const s: GuardScene = { root, project, runtimeDir, boardDir, roster: { v: 1, updatedAt: 1, teammates }, fake, tools: new FakeFileTools(fake, project), outcomes: [] };
  (this as { editGuards?: GuardScene }).editGuards = s;
  await writeRoster(s);
});

Given("{string} runs with edit guards", function (name: string) {
  register(scene(this), name);
});

Given("{string} runs in her own worktree", async function (name: string) {
  const s = scene(this);
  s.worktree = join(s.root, "worktree");
  await mkdir(s.worktree, { recursive: true });
  register(s, name, s.worktree);
  s.tools = new FakeFileTools(s.fake, s.worktree);
  assert.equal(s.fake.handlers("tool_result").length, 0, "a worktree teammate keeps no file versions");
});

Given("a file {string} in her worktree with {string}", async function (path: string, text: string) {
  const s = scene(this);
  assert.ok(s.worktree, "no worktree yet");
  await mkdir(dirname(join(s.worktree, path)), { recursive: true });
  await writeFile(join(s.worktree, path), text);
});

Given("a file {string} of {int} lines", async function (path: string, n: number) {
  const file = join(scene(this).project, path);
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, lines(n));
});

When("roster.json is corrupted from outside the guarded tools", async function () {
  await writeFile(join(scene(this).runtimeDir, "roster.json"), "{ not json");
});

Given("{string} holds {string} for task {string}", async function (name: string, tag: string, taskId: string) {
  const s = scene(this);
  const e = entry(s, name);
  e.holds = [...(e.holds ?? []), { tag, taskId }];
  await writeRoster(s);
});

Given("{string} holds {string} for its direct assignment", async function (name: string, tag: string) {
  const s = scene(this);
  const e = entry(s, name);
  e.holds = [...(e.holds ?? []), { tag }];
  await writeRoster(s);
});

Given("{string} is stopped", async function (name: string) {
  const s = scene(this);
  entry(s, name).status = "stopped";
  await writeRoster(s);
});

Given("a file {string} with {string}", async function (path: string, text: string) {
  const file = join(scene(this).project, path);
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, text);
});

When("someone else changes {string} to {string}", async function (path: string, text: string) {
  await writeFile(join(scene(this).project, path), text);
});

When("{string} reads {string}", async function (_name: string, path: string) {
  const s = scene(this);
  s.outcomes.push(await s.tools.read(path));
});

When("{string} writes {string} with {string}", async function (_name: string, path: string, text: string) {
  const s = scene(this);
  s.outcomes.push(await s.tools.write(path, text));
});

When("{string} reads lines {int} to {int} of {string}", async function (_name: string, from: number, to: number, path: string) {
  const s = scene(this);
  s.outcomes.push(await s.tools.run(await s.tools.prepare("read", { path, offset: from, limit: to - from + 1 })));
});

When("{string} reads the roster", async function (_name: string) {
  const s = scene(this);
  s.outcomes.push(await s.tools.read(join(s.runtimeDir, "roster.json")));
});

When("{string} writes the roster with {string}", async function (_name: string, text: string) {
  const s = scene(this);
  s.outcomes.push(await s.tools.write(join(s.runtimeDir, "roster.json"), text));
});

When("{string} writes {string} in the board dir with {string}", async function (_name: string, path: string, text: string) {
  const s = scene(this);
  s.outcomes.push(await s.tools.write(join(s.boardDir, path), text));
});

When("{string} writes {string} in the agent dir with {string}", async function (_name: string, path: string, text: string) {
  const s = scene(this);
  s.outcomes.push(await s.tools.write(join(agentDirOf(s), path), text));
});

When("{string} writes the shared project's {string} with {string}", async function (_name: string, path: string, text: string) {
  const s = scene(this);
  s.outcomes.push(await s.tools.write(join(s.project, path), text));
});

When("{string} writes a scratch file outside the project", async function (_name: string) {
  const s = scene(this);
  s.outcomes.push(await s.tools.write(join(s.root, "scratch", "notes.txt"), "scratch"));
});

When("{string} edits {string} replacing {string} with {string}", async function (_name: string, path: string, from: string, to: string) {
  const s = scene(this);
  s.outcomes.push(await s.tools.edit(path, from, to));
});

Then("the call passes", function () {
  const outcome = last(scene(this));
  assert.equal(outcome.blocked, false, outcome.reason);
  assert.equal(outcome.isError, false, outcome.text);
});

Then("every call passes", function () {
  for (const outcome of scene(this).outcomes) assert.equal(outcome.blocked || outcome.isError, false, outcome.text);
});

Then("the call is blocked", function () {
  assert.equal(last(scene(this)).blocked, true);
});

Then("the call is blocked mentioning {string}", function (text: string) {
  const outcome = last(scene(this));
  assert.equal(outcome.blocked, true, "the call was not blocked");
  assert.ok(outcome.reason?.includes(text), `${JSON.stringify(outcome.reason)} does not mention ${JSON.stringify(text)}`);
});

Then("the file {string} contains {string}", async function (path: string, text: string) {
  assert.equal(await readFile(join(scene(this).project, path), "utf8"), text);
});

Then("the file {string} in her worktree contains {string}", async function (path: string, text: string) {
  const s = scene(this);
  assert.ok(s.worktree, "no worktree yet");
  assert.equal(await readFile(join(s.worktree, path), "utf8"), text);
});

Then("the roster still lists {string} as a holder", async function (name: string) {
  const roster = JSON.parse(await readFile(join(scene(this).runtimeDir, "roster.json"), "utf8")) as RosterFile;
  assert.ok(roster.teammates.find((t) => t.name === name)?.holds?.length, `${name} holds nothing in roster.json`);
});

Then("the file {string} does not exist", async function (path: string) {
  await assert.rejects(stat(join(scene(this).project, path)), { code: "ENOENT" });
});
