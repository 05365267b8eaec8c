/**
 * Environment variables the leader sets on every child it starts. A child learns who it is from
 * these alone (never from a message payload), so a report's sender cannot be forged (R47).
 */
export const ENV = {
  /** "worker" for a resident teammate, "reviewer" for a one-shot verify reviewer. Unset in the leader. */
  role: "PI_TEAMS_ROLE",
  /** The teammate's name, e.g. "alice". */
  name: "PI_TEAMS_NAME",
  /**
   * The id of this incarnation; a respawn under the same name gets a new one. Also the marker its
   * leftover processes are found by once it has ended (src/reap/reaper.ts).
   */
  spawnId: "PI_TEAMS_SPAWN_ID",
  /** Absolute path of the session's runtime dir (roster, outboxes, inboxes, logs). */
  runtimeDir: "PI_TEAMS_RUNTIME_DIR",
  /** Absolute path of the session's board dir (board.json, claim and submission intents). */
  boardDir: "PI_TEAMS_BOARD_DIR",
  /**
   * Pid of the leader process; reviewers get it too. Every process a child starts inherits it, so
   * at the session's end the leader ends whatever still carries its pid (src/reap/reaper.ts).
   */
  leaderPid: "PI_TEAMS_LEADER_PID",
  /**
   * The id of one verify reviewer run (reviewers only): what its leftover processes are found by
   * once it has ended (src/reap/reaper.ts), as a teammate's are by its spawn id.
   */
  reviewId: "PI_TEAMS_REVIEW_ID",
  /**
   * Absolute path of the teammate's own Git worktree (R20). Unset for a teammate that shares the
   * leader's working tree. Shared-tree teammates get every edit guard; worktree teammates a
   * reduced one (src/worker/edit-guards.ts).
   */
  worktree: "PI_TEAMS_WORKTREE",
  /**
   * Absolute path of the shared project: the leader's cwd. A worktree teammate's edit guard
   * blocks `edit`/`write` into it outside the teammate's own worktree.
   */
  project: "PI_TEAMS_PROJECT",
  /**
   * Absolute path of the worker side as one prebuilt module (src/process/worker-bundle.ts), set
   * only when the leader found it fresh. Unset: the teammate loads src/worker/worker.ts.
   */
  workerBundle: "PI_TEAMS_WORKER_BUNDLE",
  /**
   * `stream` when the teammate's records travel on its RPC pipe (a launcher that shares no files
   * with the leader: src/worker/stream.ts); unset or `files` for the file mailboxes.
   */
  transport: "PI_TEAMS_TRANSPORT",
  /**
   * Absolute path of the team notebook (issue 20): a dir every teammate and the leader read and
   * write with their ordinary tools. Unset for a teammate whose launcher runs pi elsewhere.
   */
  notebook: "PI_TEAMS_NOTEBOOK",
} as const;

/** How a teammate's records reach the leader: its mail and intent files, or its own RPC pipe. */
export type Transport = "files" | "stream";

/** Who this process is, read once from the environment. */
export type Identity =
  | { role: "leader" }
  | {
      role: "worker";
      name: string;
      spawnId: string;
      runtimeDir: string;
      boardDir: string;
      leaderPid: number;
      /** Set when the teammate works in its own worktree (ENV.worktree), not the shared tree. */
      worktree?: string;
      /** The leader's cwd (ENV.project); absent when an older leader did not set it. */
      project?: string;
      /** How its records travel (ENV.transport); `files` when absent. */
      transport?: Transport;
      /** The team notebook (ENV.notebook); absent where the launcher runs pi elsewhere. */
      notebook?: string;
    }
  | { role: "reviewer" };

/**
 * Reads this process's identity from `env`. A worker whose variables are incomplete is a
 * bug in the spawner, so it throws rather than guessing.
 * @throws Error naming the missing variable.
 */
export function readIdentity(env: NodeJS.ProcessEnv): Identity {
  const role = env[ENV.role];
  if (role === "reviewer") return { role: "reviewer" };
  if (role !== "worker") return { role: "leader" };
  const need = (key: string): string => {
    const value = env[key];
    if (!value) throw new Error(`${key} is not set; a teammate needs it to know who it is (set by teammate_spawn)`);
    return value;
  };
  const worktree = env[ENV.worktree];
  const transport = env[ENV.transport] ?? "files";
  if (transport !== "files" && transport !== "stream") throw new Error(`${ENV.transport} is ${JSON.stringify(transport)}; it must be "files" or "stream" (set by teammate_spawn)`);
  const project = env[ENV.project];
  const notebook = env[ENV.notebook];
  return {
    role: "worker",
    name: need(ENV.name),
    spawnId: need(ENV.spawnId),
    runtimeDir: need(ENV.runtimeDir),
    boardDir: need(ENV.boardDir),
    leaderPid: Number(need(ENV.leaderPid)),
    ...(worktree ? { worktree } : {}),
    ...(project ? { project } : {}),
    ...(transport === "stream" ? { transport } : {}),
    ...(notebook ? { notebook } : {}),
  };
}
