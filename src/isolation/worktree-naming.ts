/**
 * Naming rules of teammate worktrees (R20, L23). Pure: no I/O, no clock.
 *
 * A teammate `alice` with spawn id `3f2a9c1e-...` works on branch `pi-team/alice-3f2a9c1e` in the
 * dir `<worktreesRoot>/alice-3f2a9c1e`, described by the sidecar `<worktreesRoot>/alice-3f2a9c1e.json`.
 */
import { TeamError } from "../errors.ts";
import { NAME_CHARS_PATTERN, TEAMMATE_NAME_MAX_LENGTH } from "../mail/names.ts";

/** Every teammate branch lives under this ref folder: `refs/heads/pi-team/...`. */
export const BRANCH_PREFIX = "pi-team/";
/** Characters of the spawn id kept in branch and dir names. */
export const SPAWN_SUFFIX_LENGTH = 8;
/** Suffix of the sidecar record next to each worktree dir. */
export const RECORD_SUFFIX = ".json";
/** A full object name: SHA-1 (40 hex) or SHA-256 (64 hex). */
export const SHA_PATTERN = /^[0-9a-f]{40}([0-9a-f]{24})?$/;
/** Git config key (per branch) holding the sha a teammate branch's diff starts at. */
export const BASE_CONFIG_KEY = "piTeamBase";

/**
 * The fixed identity and settings of capture commits, as `git` global options (R20, W14): they work
 * where git has no `user.name`/`user.email` at all, and a user's signing setup cannot make capture
 * fail. Hooks are skipped with `commit --no-verify` (see {@link captureCommitArgs}).
 */
export const CAPTURE_IDENTITY_ARGS: readonly string[] = [
  "-c",
  "user.name=pi-resident-teams",
  "-c",
  "user.email=teammates@pi-resident-teams.invalid",
  "-c",
  "commit.gpgsign=false",
];

/**
 * The branch of a teammate's worktree: `pi-team/<name lowercased>-<first 8 [a-z0-9] of spawnId>`,
 * a valid `git check-ref-format --branch` name. Teammate names cannot hold most ref-breaking
 * characters; the one left, a run of dots (`a..b`), is collapsed to one dot. The last component ends
 * with the spawn suffix, so it never ends with `.`, `/` or `.lock`.
 * @throws TeamError `invalid_input` when `name` is not a teammate name or `spawnId` has fewer than 8
 *   letters or digits.
 */
export function worktreeBranch(name: string, spawnId: string): string {
  const stem = checkedName(name).replace(/\.{2,}/g, ".");
  return `${BRANCH_PREFIX}${stem}-${spawnSuffix(spawnId)}`;
}

/**
 * The dir name of a teammate's worktree under the caller's worktrees root:
 * `<name lowercased>-<first 8 [a-z0-9] of spawnId>` (dots kept as they are: only `.` and `..` are
 * special to file systems, and names start with a letter).
 * @throws TeamError `invalid_input` as {@link worktreeBranch}.
 */
export function worktreeDirName(name: string, spawnId: string): string {
  return `${checkedName(name)}-${spawnSuffix(spawnId)}`;
}

/**
 * True when `dirName` (a base name, or a sidecar name without `.json`) is a worktree dir of the
 * teammate `name`, from any spawn: exactly `<name lowercased>-` plus 8 letters or digits. Names may
 * contain `-`, but every dir name ends with one `-<8 alnum>`, so `a` never matches a dir of `a-b`.
 */
export function isDirOfName(dirName: string, name: string): boolean {
  const stem = name.toLowerCase();
  if (!dirName.startsWith(`${stem}-`)) return false;
  return /^[a-z0-9]{8}$/.test(dirName.slice(stem.length + 1));
}

/**
 * Splits a worktree dir name into its lowercased teammate name and spawn suffix, or returns
 * undefined when `dirName` does not have that shape.
 */
export function splitDirName(dirName: string): { name: string; suffix: string } | undefined {
  const match = /^([a-z][a-z0-9._-]*)-([a-z0-9]{8})$/.exec(dirName);
  if (!match?.[1] || !match[2]) return undefined;
  return { name: match[1], suffix: match[2] };
}

/** Path of the sidecar record of the worktree at `dir`: `<dir>.json`. */
export function recordPathOf(dir: string): string {
  return `${dir}${RECORD_SUFFIX}`;
}

/** The git config key storing the base of `branch`: `branch.<branch>.piTeamBase`. */
export function baseConfigKey(branch: string): string {
  return `branch.${branch}.${BASE_CONFIG_KEY}`;
}

/** Commit message of a capture commit: subject, blank line, where the work came from. */
export function captureMessage(input: { name: string; spawnId: string; dir: string; reason: CaptureReason }): string {
  const subject =
    input.reason === "discard"
      ? `pi-resident-teams: work of ${input.name} left by a failed spawn`
      : `pi-resident-teams: work of ${input.name} left at shutdown`;
  return `${subject}\n\nCaptured from the worktree ${input.dir} (spawn ${input.spawnId}).\n`;
}

/** Why a worktree is being captured; only changes the commit message. */
export type CaptureReason = "shutdown" | "discard";

/** The `git commit` arguments of a capture commit (identity, no hooks, no signing). */
export function captureCommitArgs(message: string): string[] {
  return [...CAPTURE_IDENTITY_ARGS, "commit", "--no-verify", "-m", message];
}

function checkedName(name: string): string {
  if (name.length === 0 || name.length > TEAMMATE_NAME_MAX_LENGTH || !NAME_CHARS_PATTERN.test(name)) {
    throw new TeamError(
      "invalid_input",
      `Cannot name a worktree for teammate ${JSON.stringify(name)}; expected a teammate name: a letter first, ` +
        `then letters, digits, ".", "_" or "-", at most ${TEAMMATE_NAME_MAX_LENGTH} characters.`,
    );
  }
  return name.toLowerCase();
}

function spawnSuffix(spawnId: string): string {
  const suffix = spawnId.toLowerCase().replace(/[^a-z0-9]/g, "").slice(0, SPAWN_SUFFIX_LENGTH);
  if (suffix.length < SPAWN_SUFFIX_LENGTH) {
    throw new TeamError(
      "invalid_input",
      `Cannot name a worktree for spawn id ${JSON.stringify(spawnId)}: it has fewer than ${SPAWN_SUFFIX_LENGTH} ` +
        "letters or digits; expected a spawn id such as a UUID.",
    );
  }
  return suffix;
}
