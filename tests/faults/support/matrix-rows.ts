/**
 * The rows of the bad-input matrix (case 7): for every tool of the leader and of a teammate,
 * names with `/`, `..`, 65 characters, reserved words and non-ASCII letters; unknown agents,
 * tasks and recipients; JSON-string and wrong-typed arrays; multi-megabyte messages; arguments
 * that are not an object. The matrix test runs the leader rows in one leader reply and the
 * worker rows in one reply of teammate `alice` (peer `bob` is alive and idle); the task
 * `probe-task` exists, held by nobody.
 */
import type { MatrixRow } from "./matrix.ts";

/** 3 MiB of text: a multi-megabyte message. Its size in characters starts with "3145". */
export const BIG = "M".repeat(3 * 1024 * 1024);
const BIG_VALUE = "3145";
const BIG_CHUNK = 1 << 20;
const LONG_NAME = `n${"x".repeat(64)}`; // 65 characters
const LONG_ID = `t${"x".repeat(64)}`;

/** The leader's tools: teammate_spawn, teammate_shutdown, send_message, task_create, task_list. */
export function leaderRows(): MatrixRow[] {
  const spawn = (id: string, input: string, args: unknown, field: string, value?: string): MatrixRow =>
    ({ id: `L-spawn-${id}`, side: "leader", tool: "teammate_spawn", input, args, expect: "error", field, ...(value ? { value } : {}) });
  const shutdown = (id: string, input: string, args: unknown, value?: string): MatrixRow =>
    ({ id: `L-shutdown-${id}`, side: "leader", tool: "teammate_shutdown", input, args, expect: "error", field: "name", ...(value ? { value } : {}) });
  const send = (id: string, input: string, args: unknown, field: string, value?: string): MatrixRow =>
    ({ id: `L-send-${id}`, side: "leader", tool: "send_message", input, args, expect: "error", field, ...(value ? { value } : {}) });
  const create = (id: string, input: string, args: unknown, field: string, value?: string): MatrixRow =>
    ({ id: `L-create-${id}`, side: "leader", tool: "task_create", input, args, expect: "error", field, ...(value ? { value } : {}) });
  const list = (id: string, input: string, args: unknown, field: string, value?: string): MatrixRow =>
    ({ id: `L-list-${id}`, side: "leader", tool: "task_list", input, args, expect: "error", field, ...(value ? { value } : {}) });
  return [
    spawn("name-slash", 'name: "a/b"', { name: "a/b", agent: "worker" }, "name", '"a/b"'),
    spawn("name-dotdot", 'name: ".."', { name: "..", agent: "worker" }, "name", '".."'),
    spawn("name-dotdot-path", 'name: "../x"', { name: "../x", agent: "worker" }, "name", '"../x"'),
    spawn("name-65", "name: 65 characters", { name: LONG_NAME, agent: "worker" }, "name", "65"),
    spawn("name-leader", 'name: "leader"', { name: "leader", agent: "worker" }, "name", '"leader"'),
    spawn("name-task-board", 'name: "task-board"', { name: "task-board", agent: "worker" }, "name", '"task-board"'),
    spawn("name-unicode", 'name: "ålice"', { name: "ålice", agent: "worker" }, "name", '"ålice"'),
    spawn("name-empty", 'name: ""', { name: "", agent: "worker" }, "name"),
    spawn("name-array", 'name: ["ann"] (wrong type)', { name: ["ann"], agent: "worker" }, "name", "ann"),
    spawn("agent-unknown", 'agent: "ghost"', { name: "u1", agent: "ghost" }, "agent", '"ghost"'),
    spawn("agent-path", 'agent: "../worker"', { name: "u2", agent: "../worker" }, "agent", '"../worker"'),
    spawn("resources-badjson", "resources: '[\"src\"' (broken JSON string)", { name: "r1", agent: "worker", resources: '["src"' }, "resources", '["src"'),
    { id: "L-spawn-resources-numbers", side: "leader", tool: "teammate_spawn", input: 'resources: [1, 2] (pi coerces the items to "1", "2")', args: { name: "r2", agent: "worker", resources: [1, 2] }, expect: "accepted" },
    spawn("resources-objects", "resources: [{}] (wrong-typed array)", { name: "r6", agent: "worker", resources: [{}] }, "resources"),
    spawn("resources-object", "resources: {a: 1} (wrong type)", { name: "r3", agent: "worker", resources: { a: 1 } }, "resources"),
    spawn("resources-abs", 'resources: ["/etc"]', { name: "r4", agent: "worker", resources: ["/etc"] }, "resources", '"/etc"'),
    spawn("resources-dotdot", 'resources: ["src/../x"]', { name: "r5", agent: "worker", resources: ["src/../x"] }, "resources", "src/../x"),
    { id: "L-spawn-resources-json-string", side: "leader", tool: "teammate_spawn", input: "resources: '[\"src/ok\"]' (JSON string, valid)", args: { name: "rjson", agent: "worker", resources: '["src/ok"]' }, expect: "accepted" },
    spawn("handoff-unknown", 'handoffFrom: "ghost"', { name: "h1", agent: "worker", handoffFrom: "ghost" }, "handoffFrom", '"ghost"'),
    spawn("definition-badjson", 'definition: "{not json"', { name: "d1", agent: "inline1", definition: "{not json" }, "definition", "{not json"),
    spawn("definition-tool", 'definition.tools: "rm"', { name: "d2", agent: "inline2", definition: { prompt: "p", tools: "rm" } }, "tools", '"rm"'),
    spawn("args-array", "arguments: [1, 2] (not an object)", [1, 2], "arguments", "[1,2]"),
    spawn("args-string", 'arguments: "spawn bob" (not an object)', "spawn bob", "arguments", "spawn bob"),

    shutdown("ghost", 'name: "ghost" (unknown)', { name: "ghost" }, '"ghost"'),
    shutdown("slash", 'name: "a/b"', { name: "a/b" }, '"a/b"'),
    shutdown("65", "name: 65 characters", { name: LONG_NAME }, LONG_NAME.slice(0, 20)),
    shutdown("leader", 'name: "leader"', { name: "leader" }, '"leader"'),
    shutdown("unicode", 'name: "ålice"', { name: "ålice" }, '"ålice"'),
    shutdown("missing", "name missing", {}),
    { ...shutdown("args-number", "arguments: 42 (not an object)", 42, "42"), field: "arguments" },

    send("to-ghost", 'to: "ghost" (unknown)', { to: "ghost", message: "m" }, "to", '"ghost"'),
    send("to-slash", 'to: "a/b"', { to: "a/b", message: "m" }, "to", '"a/b"'),
    send("to-dotdot", 'to: ".."', { to: "..", message: "m" }, "to", '".."'),
    send("to-65", "to: 65 characters", { to: LONG_NAME, message: "m" }, "to", LONG_NAME.slice(0, 20)),
    send("to-leader", 'to: "leader" (itself)', { to: "leader", message: "m" }, "to", '"leader"'),
    send("to-task-board", 'to: "task-board"', { to: "task-board", message: "m" }, "to", '"task-board"'),
    send("to-unicode", 'to: "ålice"', { to: "ålice", message: "m" }, "to", '"ålice"'),
    send("reopen-string", 'reopen: "yes" (wrong type)', { to: "bob", message: "m", reopen: "yes" }, "reopen", "yes"),
    send("message-missing", "message missing", { to: "bob" }, "message"),
    { id: "L-send-status-stray", side: "leader", tool: "send_message", input: 'status: "done" (workers only; noted and ignored)', args: { to: "bob", message: "stray status", status: "done" }, expect: "accepted" },
    { ...send("big-idle", "message: 3 MiB, to an idle teammate", { to: "bob", message: BIG }, "message", BIG_VALUE), chunkSize: BIG_CHUNK },
    send("args-string", 'arguments: "hello" (not an object)', "hello", "arguments", "hello"),

    create("subject-empty", 'subject: ""', { subject: "" }, "subject", '""'),
    create("subject-missing", "subject missing", {}, "subject"),
    create("depends-unknown", 'dependsOn: ["ghost"]', { subject: "c1", dependsOn: ["ghost"] }, "dependsOn", "ghost"),
    create("depends-string-unknown", "dependsOn: '[\"ghost\"]' (JSON string)", { subject: "c2", dependsOn: '["ghost"]' }, "dependsOn", "ghost"),
    create("depends-plain-string", 'dependsOn: "ghost" (not a JSON array)', { subject: "c3", dependsOn: "ghost" }, "dependsOn", "ghost"),
    create("depends-numbers", 'dependsOn: [1, 2] (pi coerces to "1", "2")', { subject: "c4", dependsOn: [1, 2] }, "dependsOn", "1"),
    create("depends-objects", 'dependsOn: [{"id": "x"}] (wrong-typed array)', { subject: "c9", dependsOn: [{ id: "x" }] }, "dependsOn"),
    create("resources-dotdot", 'resources: ["src/../etc"]', { subject: "c5", resources: ["src/../etc"] }, "resources", "src/../etc"),
    create("resources-abs", 'resources: ["/etc/passwd"]', { subject: "c6", resources: ["/etc/passwd"] }, "resources", "/etc/passwd"),
    create("resources-glob", 'resources: ["src/*"]', { subject: "c7", resources: ["src/*"] }, "resources", "src/*"),
    create("supersedes-unknown", 'supersedes: ["ghost"]', { subject: "c8", supersedes: ["ghost"] }, "supersedes", "ghost"),
    { id: "L-create-resources-json-string", side: "leader", tool: "task_create", input: "resources: '[\"src/probe\"]' (JSON string, valid)", args: { subject: "Probe task", resources: '["src/probe"]' }, expect: "accepted" },
    { ...create("subject-big", "subject: 3 MiB", { subject: BIG }, "subject", BIG_VALUE), chunkSize: BIG_CHUNK },
    create("args-array", "arguments: [1] (not an object)", [1], "arguments", "[1]"),

    list("task-ghost", 'taskId: "ghost" (unknown)', { taskId: "ghost" }, "taskId", "ghost"),
    list("task-dotdot", 'taskId: "a/../b"', { taskId: "a/../b" }, "taskId", "a/../b"),
    list("task-65", "taskId: 65 characters", { taskId: LONG_ID }, "taskId", LONG_ID.slice(0, 20)),
    list("offset-negative", "offset: -1", { offset: -1 }, "offset", "-1"),
    list("offset-string", 'offset: "first" (wrong type)', { offset: "first" }, "offset", "first"),
    list("args-string", 'arguments: "all" (not an object)', "all", "arguments", "all"),
  ];
}

/** A teammate's tools: send_message, task_list, task_claim, task_submit (run by `alice`). */
export function workerRows(): MatrixRow[] {
  const row = (tool: string, id: string, input: string, args: unknown, field: string, value?: string): MatrixRow =>
    ({ id: `W-${tool.replace("task_", "").replace("send_message", "send")}-${id}`, side: "worker", tool, input, args, expect: "error", field, ...(value ? { value } : {}) });
  return [
    row("send_message", "to-ghost", 'to: "ghost" (unknown)', { to: "ghost", message: "m" }, "to", '"ghost"'),
    row("send_message", "to-slash", 'to: "a/b"', { to: "a/b", message: "m" }, "to", '"a/b"'),
    row("send_message", "to-dotdot", 'to: "../bob"', { to: "../bob", message: "m" }, "to", '"../bob"'),
    row("send_message", "to-65", "to: 65 characters", { to: LONG_NAME, message: "m" }, "to", LONG_NAME.slice(0, 20)),
    row("send_message", "to-task-board", 'to: "task-board"', { to: "task-board", message: "m" }, "to", '"task-board"'),
    row("send_message", "to-unicode", 'to: "ålice"', { to: "ålice", message: "m" }, "to", '"ålice"'),
    row("send_message", "to-self", 'to: "alice" (itself)', { to: "alice", message: "m" }, "to", '"alice"'),
    row("send_message", "status-bad", 'to: "leader", status: "done"', { to: "leader", message: "m", status: "done" }, "status", '"done"'),
    row("send_message", "peer-status", 'to: "bob", status: "completed" (peer mail)', { to: "bob", message: "m", status: "completed" }, "status", '"completed"'),
    { ...row("send_message", "big-leader", 'to: "leader", message: 3 MiB', { to: "leader", message: BIG }, "message", BIG_VALUE), chunkSize: BIG_CHUNK },
    { ...row("send_message", "big-peer", 'to: "bob", message: 3 MiB', { to: "bob", message: BIG }, "message", BIG_VALUE), chunkSize: BIG_CHUNK },
    row("send_message", "args-array", "arguments: [1] (not an object)", [1], "arguments", "[1]"),
    row("task_list", "task-ghost", 'taskId: "ghost" (unknown)', { taskId: "ghost" }, "taskId", "ghost"),
    row("task_list", "offset-negative", "offset: -1", { offset: -1 }, "offset", "-1"),
    row("task_claim", "ghost", 'taskId: "ghost" (unknown)', { taskId: "ghost" }, "taskId", "ghost"),
    row("task_claim", "slash", 'taskId: "a/b"', { taskId: "a/b" }, "taskId", "a/b"),
    row("task_claim", "dotdot", 'taskId: "../probe-task"', { taskId: "../probe-task" }, "taskId", "../probe-task"),
    row("task_claim", "65", "taskId: 65 characters", { taskId: LONG_ID }, "taskId", "65"),
    row("task_claim", "unicode", 'taskId: "tâche"', { taskId: "tâche" }, "taskId", "tâche"),
    row("task_claim", "array", 'taskId: ["probe-task"] (wrong type)', { taskId: ["probe-task"] }, "taskId", "probe-task"),
    row("task_claim", "args-string", 'arguments: "probe-task" (not an object)', "probe-task", "arguments", "probe-task"),
    row("task_submit", "ghost", 'taskId: "ghost" (unknown)', { taskId: "ghost", status: "completed" }, "taskId", "ghost"),
    row("task_submit", "not-holder", 'taskId: "probe-task" (held by nobody)', { taskId: "probe-task", status: "completed" }, "taskId", "probe-task"),
    { ...row("task_submit", "status-bad", 'status: "done"', { taskId: "probe-task", status: "done" }, "status", "done"), accepts: '"failed"' },
    { ...row("task_submit", "big-result", "result: 3 MiB", { taskId: "probe-task", status: "failed", result: BIG }, "result", BIG_VALUE), chunkSize: BIG_CHUNK },
    row("task_submit", "args-number", "arguments: 42 (not an object)", 42, "arguments", "42"),
  ];
}
