import { describe, expect, it } from "vitest";
import { createNoticeBook, createTask, describeCreate, planNotices, type Board, type NoticeTeammate } from "../../../src/board/index.ts";
import { add, mate, newBoard, take } from "./fixture.ts";

function created(board: Board, subject: string, extra: { dependsOn?: string[]; resources?: string[]; supersedes?: string[] }, teammates: NoticeTeammate[], starting?: string[]) {
  const r = createTask(board, { subject, ...extra }, 1);
  if (!r.ok) throw new Error(r.message);
  const plan = planNotices(board, createNoticeBook(), { teammates, now: 1, synchronous: true, onlyTaskIds: [r.task.id] });
  return describeCreate(board, { created: r, plan, living: teammates.length, boardLabel: "B", ...(starting ? { starting } : {}) });
}

const idle: NoticeTeammate = { name: "alice", spawnId: "a1", idle: true, hasAssignment: false };

describe("describeCreate (R35)", () => {
  it("names the board and the notified teammate", () => {
    expect(created(newBoard(), "Docs", {}, [idle])).toBe("Created task `docs` (Docs) on board B.\nNotified idle teammate: @alice.");
  });

  it("asks for teammate_spawn when nobody lives", () => {
    expect(created(newBoard(), "Docs", {}, [])).toContain("No teammate is alive: call teammate_spawn");
  });

  // Regression (issue 6): teammate_spawn and task_create in one answer run in parallel; the spawn
  // had not registered its teammate yet, and task_create told the leader to spawn one.
  it("does not ask for teammate_spawn while a teammate is being spawned or starting", () => {
    const text = created(newBoard(), "Docs", {}, [], ["alice"]);
    expect(text).not.toContain("No teammate is alive");
    expect(text).toContain("@alice is starting; the task reaches it once it is ready");
    const starting: NoticeTeammate = { name: "bob", spawnId: "b1", idle: false, hasAssignment: false };
    const two = created(newBoard(), "Docs", {}, [starting], ["carol", "bob", "bob"]);
    expect(two).toContain("@carol, @bob are starting; the task reaches them once they are ready");
  });

  it("a task waiting for dependencies says so even while a teammate starts", () => {
    const board = newBoard();
    add(board, "Build");
    expect(created(board, "Ship", { dependsOn: ["build"] }, [], ["alice"])).toContain("It waits for `build` to complete");
  });

  it("says which dependencies it waits for", () => {
    const board = newBoard();
    add(board, "Build");
    expect(created(board, "Ship", { dependsOn: ["build"] }, [idle])).toContain("It waits for `build` to complete");
  });

  it("says which holding blocks its resources", () => {
    const board = newBoard();
    add(board, { subject: "Api", resources: ["api"] });
    take(board, mate("bob"), "api");
    expect(created(board, "Auth", { resources: ["api/auth"] }, [idle])).toContain("overlaps `api`, held by @bob");
  });

  it("lists superseded and re-pointed ids", () => {
    const board = newBoard();
    add(board, "Old");
    add(board, { subject: "Dep", dependsOn: ["old"] });
    const text = created(board, "New", { supersedes: ["old"] }, []);
    expect(text).toContain("Superseded `old`");
    expect(text).toContain("Re-pointed dependents: `dep` (old → new)");
  });
});
