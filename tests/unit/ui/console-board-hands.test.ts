import { describe, expect, it } from "vitest";
import { createBoard, createTask, normalizeCreateInput } from "../../../src/board/index.ts";
import { TASK_FORM_FIELDS, taskFormArgs } from "../../../src/ui/task-form.ts";
import { expectFrame, KEY, makeConsole, settle } from "./fixture.ts";

/** Issue 21 scope 3: the Board page's hands (n new task, o offer, r one more attempt). */
const statusLine = (lines: readonly string[]): string => lines[lines.length - 2] ?? "";
const legend = (lines: readonly string[]): string => lines[lines.length - 1] ?? "";
const empty = Object.fromEntries(TASK_FORM_FIELDS.map((f) => [f.key, ""])) as Parameters<typeof taskFormArgs>[0];

/** The board's answer to `args`, as the leader's task_create gets it (the first error, or "ok"). */
function boardAnswer(args: unknown): string {
  const input = normalizeCreateInput(args);
  if (!input.ok) return `task_create: ${input.message}`;
  const board = createBoard();
  createTask(board, { subject: "Existing" }, 0);
  const created = createTask(board, input.value, 1);
  return created.ok ? "ok" : `task_create: ${created.message}`;
}

describe("taskFormArgs: the form's texts as task_create arguments", () => {
  it("trims texts, splits lists at commas and spaces, and leaves out empty optional fields", () => {
    expect(taskFormArgs({ ...empty, subject: "  Add a cache  " })).toEqual({ subject: "Add a cache" });
    expect(taskFormArgs({ subject: "S", description: " d ", dependsOn: "a, b  c", resources: "src/api,src/db", verify: " v ", supersedes: "old" })).toEqual({
      subject: "S", description: "d", dependsOn: ["a", "b", "c"], resources: ["src/api", "src/db"], verify: "v", supersedes: ["old"],
    });
  });

  it("gets the board's own task_create errors: the same words the leader's tool gets", () => {
    const cases = [
      { ...empty },
      { ...empty, subject: "Use it", dependsOn: "no-such-task" },
      { ...empty, subject: "Replace it", supersedes: "nothing-here" },
      { ...empty, subject: "Tag it", resources: "../outside" },
    ];
    for (const values of cases) {
      const args = taskFormArgs(values);
      const tool = { subject: values.subject, ...(args.dependsOn ? { dependsOn: args.dependsOn } : {}), ...(args.supersedes ? { supersedes: args.supersedes } : {}), ...(args.resources ? { resources: args.resources } : {}) };
      expect(boardAnswer(args)).toBe(boardAnswer(tool));
      expect(boardAnswer(args)).toMatch(/^task_create: /);
    }
  });
});

describe("TeamConsole: n opens the new-task form on the Board page", () => {
  it("Enter moves field by field and adds on the last; the list comes back with the board's answer", async () => {
    const c = makeConsole({ page: "board" });
    c.press("n");
    expect(c.screen().join("\n")).toContain("New task");
    expect(legend(c.screen())).toContain("Ctrl+S add");
    c.press(..."Add a cache".split(""), KEY.enter); // subject → description
    c.press(..."In src/cache.js".split(""), KEY.enter, KEY.enter, ..."src/cache.js".split(""), KEY.enter, KEY.enter, KEY.enter);
    await settle();
    expect(c.actions.createTask).toHaveBeenCalledWith({ subject: "Add a cache", description: "In src/cache.js", resources: ["src/cache.js"] });
    expect(statusLine(c.screen())).toContain("Created task `add-a-cache`");
    expect(c.screen().join("\n")).not.toContain("New task");
  });

  it("a refusal keeps the form and its text, with the board's reason; Esc then adds nothing", async () => {
    const c = makeConsole({ page: "board" });
    c.actions.createTask.mockRejectedValueOnce(new Error("task_create: subject is empty; give the task a short imperative subject."));
    c.press("n", "\x13"); // Ctrl+S on an empty form
    await settle();
    expect(statusLine(c.screen())).toContain("task_create: subject is empty; give the task a short imperative subject.");
    expect(c.screen().join("\n")).toContain("New task");
    c.press(KEY.esc);
    expect(statusLine(c.screen())).toContain("No task added.");
  });

  it("q and n are text in the form, and it fits at 80 and 120 columns", () => {
    for (const columns of [80, 120]) {
      const c = makeConsole({ page: "board", columns, rows: 20 });
      c.press("n", "q", "n");
      expect(c.done).not.toHaveBeenCalled();
      expect(c.screen(columns).join("\n")).toContain("qn");
      expectFrame(c.screen(columns), columns, 20);
    }
  });

  it("n, o and r act on the Board page only", () => {
    const c = makeConsole();
    c.press("n");
    expect(statusLine(c.screen())).toContain("n adds a task on the Board page");
    c.press("o");
    expect(statusLine(c.screen())).toContain("o acts on the Board page");
  });
});

describe("TeamConsole: o offers a pending task, r allows one more attempt on a parked one", () => {
  /** Moves the Board page's selection to the first row whose line matches `re`. */
  const selectTask = (c: ReturnType<typeof makeConsole>, re: RegExp): void => {
    c.press(KEY.home);
    for (let i = 0; i < 10 && !re.test(c.screen().find((l) => l.startsWith("▸")) ?? ""); i++) c.press("j");
    expect(c.screen().find((l) => l.startsWith("▸"))).toMatch(re);
  };

  it("o on a pending task chooses among the idle teammates with ←/→ and offers on Enter", async () => {
    const c = makeConsole({ page: "board" });
    selectTask(c, /#docs\b/);
    c.press("o");
    expect(statusLine(c.screen())).toMatch(/Offer #\S+ to: +@bob/);
    expect(legend(c.screen())).toContain("←→ teammate · Enter offer · Esc cancel");
    c.press(KEY.enter);
    await settle();
    expect(c.actions.offer).toHaveBeenCalledWith(expect.any(String), "bob");
    expect(statusLine(c.screen())).toContain("a board notice woke it.");
  });

  it("o on a task that is not pending says so; Esc cancels an offer", async () => {
    const c = makeConsole({ page: "board" });
    selectTask(c, /#ui-model\b/);
    c.press("o");
    expect(statusLine(c.screen())).toMatch(/is completed; o acts on a pending task/);
    selectTask(c, /#docs\b/);
    c.press("o", KEY.esc);
    await settle();
    expect(c.actions.offer).not.toHaveBeenCalled();
    expect(statusLine(c.screen())).toContain("Not offered.");
  });

  it("r on a parked task allows one more attempt", async () => {
    const c = makeConsole({ page: "board" });
    selectTask(c, /#auth-fix\b/);
    c.press("r");
    await settle();
    expect(c.actions.allowAttempt).toHaveBeenCalledTimes(1);
    expect(statusLine(c.screen())).toContain("one more review attempt allowed");
  });

  it("the Board legend names n, o and r, in a shorter form at 80 columns", () => {
    const wide = makeConsole({ page: "board", columns: 120 });
    expect(legend(wide.screen(120))).toContain("↑↓ move · Enter detail · n new task · o offer · r retry");
    const narrow = makeConsole({ page: "board", columns: 80 });
    expect(legend(narrow.screen(80))).toContain("n new task · o offer · r retry · m model · Tab page · q close");
  });
});
