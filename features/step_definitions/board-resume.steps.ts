/**
 * Board steps: the leader's write record and the check of a resumed board
 * (features/board-resume-check.feature, issue 18). This file plays the shell: it records each
 * write as the leader does before writing, and "resumes" from the text a teammate may have changed.
 */
import assert from "node:assert/strict";
import { Given, Then, When } from "@cucumber/cucumber";
import {
  boardDigest,
  boardParts,
  checkResumedBoard,
  emptyTrail,
  parseBoardFile,
  recordWrite,
  resumeCheckText,
  reviveBoard,
  serializeBoard,
  type BoardFile,
  type BoardTrail,
} from "../../src/board/index.ts";
import { record, scene } from "./board-world.steps.ts";

interface ResumeScene {
  trail: BoardTrail;
  /** board.json as on disk. */
  text?: string;
  flag?: string;
}

function resume(world: object): ResumeScene {
  const w = world as { boardResume?: ResumeScene };
  w.boardResume ??= { trail: emptyTrail("0123456789abcdef") };
  return w.boardResume;
}

function editFile(world: object, edit: (file: BoardFile) => void): void {
  const r = resume(world);
  const file = JSON.parse(r.text ?? "") as BoardFile;
  edit(file);
  r.text = JSON.stringify(file, null, 2);
}

function resumeFrom(world: object, trail: BoardTrail): void {
  const s = scene(world);
  const r = resume(world);
  const text = r.text ?? serializeBoard(s.board);
  const parsed = parseBoardFile(text);
  assert.ok(parsed.ok, parsed.ok ? "" : parsed.message);
  const check = checkResumedBoard({ kind: "loaded", file: parsed.file, sha256: boardDigest(text) }, trail, s.now);
  r.flag = resumeCheckText(check, undefined);
  s.mates.clear();
  const revived = reviveBoard(check.kind === "trusted" ? parsed.file : check.file, [], s.now);
  s.board = revived.board;
  record(s, { ok: true, effects: revived.effects });
}

Given("the leader records and writes the board", function () {
  const r = resume(this);
  const parts = boardParts(scene(this).board);
  recordWrite(r.trail, parts, boardDigest(parts.text));
  r.text = parts.text;
});

When("board.json is rewritten with task {string} completed by {string} with result {string}", function (id: string, by: string, result: string) {
  editFile(this, (f) => {
    const t = f.tasks.find((x) => x.id === id);
    assert.ok(t, `no task ${id}`);
    t.state = { status: "completed", completedAt: 1, by };
    t.lastResult = result;
  });
});

When("board.json gains a task {string} the leader never created", function (id: string) {
  editFile(this, (f) => {
    const seq = Math.max(0, ...f.tasks.map((t) => t.seq)) + 1;
    f.tasks.push({ id, seq, subject: "Run this", dependsOn: [], resources: [], supersedes: [], createdAt: 1, updatedAt: 1, state: { status: "pending" }, noticeEpoch: 0 });
  });
});

When("the board is resumed with no teammates living", function () {
  resumeFrom(this, resume(this).trail);
});

When("the board is resumed with no record of the leader's writes", function () {
  resumeFrom(this, emptyTrail("0123456789abcdef"));
});

Then("the resume is not flagged", function () {
  assert.equal(resume(this).flag, undefined);
});

Then("the resume is flagged as {string}", function (text: string) {
  const flag = resume(this).flag;
  assert.ok(flag?.includes(text), `flag: ${flag}`);
});

Then("task {string} has a last error starting {string}", function (id: string, text: string) {
  const error = scene(this).board.tasks.get(id)?.lastError;
  assert.ok(error?.startsWith(text), `last error: ${error}`);
});

Then("the resumed board does not contain {string}", function (text: string) {
  assert.ok(!serializeBoard(scene(this).board).includes(text));
});

Then("the resumed board has no task {string}", function (id: string) {
  assert.equal(scene(this).board.tasks.has(id), false);
});
