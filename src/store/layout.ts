import { createHash } from "node:crypto";
import { homedir } from "node:os";
import { join } from "node:path";

/**
 * Pi's agent dir: `PI_CODING_AGENT_DIR`, else `~/.pi/agent`.
 */
export function agentDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.PI_CODING_AGENT_DIR || join(homedir(), ".pi", "agent");
}

/**
 * Session key (R59): first 16 hex chars of sha256 of the session file path, or of the cwd
 * when the session has no file (`--no-session`).
 */
export function sessionKey(sessionFile: string | undefined, cwd: string): string {
  return createHash("sha256").update(sessionFile ?? cwd).digest("hex").slice(0, 16);
}

/** Name of the session lock in a runtime dir: the leader's pid (src/harness/session-lock.ts). */
export const SESSION_LOCK_FILE = "leader.lock";

/** Paths of one session's runtime state (R57). Directories are 0700, files 0600. */
export interface RuntimeLayout {
  root: string;
  /** The session lock (`leader.lock`). */
  lock: string;
  roster: string;
  outboxDir: string;
  inboxDir: string;
  logDir: string;
  outbox(name: string): string;
  inbox(name: string): string;
  log(name: string): string;
}

/** `<agent dir>/teammate/<session key>/` and the files in it. */
export function runtimeLayout(agentDirPath: string, key: string): RuntimeLayout {
  const root = join(agentDirPath, "teammate", key);
  return runtimeLayoutAt(root);
}

/** The same layout for a runtime dir already known (a worker gets it from its env). */
export function runtimeLayoutAt(root: string): RuntimeLayout {
  const outboxDir = join(root, "outbox");
  const inboxDir = join(root, "inbox");
  const logDir = join(root, "logs");
  return {
    root,
    lock: join(root, SESSION_LOCK_FILE),
    roster: join(root, "roster.json"),
    outboxDir,
    inboxDir,
    logDir,
    outbox: (name) => join(outboxDir, `${name}.jsonl`),
    inbox: (name) => join(inboxDir, `${name}.jsonl`),
    log: (name) => join(logDir, `${name}.log`),
  };
}

/** Paths of one session's board (R58): `<agent dir>/tasks/<session key>/`. */
export interface BoardLayout {
  root: string;
  board: string;
  /** The team notebook (issue 20): notes every teammate reads and writes; kept with the board. */
  notebook: string;
  claimsDir: string;
  submissionsDir: string;
}

export function boardLayout(agentDirPath: string, key: string): BoardLayout {
  return boardLayoutAt(join(agentDirPath, "tasks", key));
}

export function boardLayoutAt(root: string): BoardLayout {
  return {
    root,
    board: join(root, "board.json"),
    notebook: join(root, "notebook"),
    claimsDir: join(root, "claims"),
    submissionsDir: join(root, "submissions"),
  };
}
