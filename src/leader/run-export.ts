/**
 * Writes the run export (issue 20 scope 5): `/agent-teams export [file]`, and at the end of a
 * session when `PI_TEAMMATE_EXPORT` names a file (for `pi -p`). The page itself is pure
 * (src/ui/export-page.ts); here are its inputs: the console's snapshot, the feed's timeline, and
 * each incarnation's transcript, made by Pi's own `pi --export` of its session file.
 */
import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { isAbsolute, join, resolve } from "node:path";
import { execa } from "execa";
import writeFileAtomic from "write-file-atomic";
import { errorText } from "../error-text.ts";
import { readTranscript } from "../feed/index.ts";
import { sessionFileIn } from "../harness/index.ts";
import { exportPage, type ExportTranscript } from "../ui/export-page.ts";
import type { TeamSession } from "./team-session.ts";

/** Longest wait for one `pi --export`, in ms. */
export const PI_EXPORT_TIMEOUT_MS = 60_000;
/** Largest Pi export page embedded, in bytes; a larger one gives way to the plain transcript. */
export const PI_EXPORT_MAX_BYTES = 16 * 1024 * 1024;

/**
 * The file an export goes to: `file` resolved against `cwd`, or, when none is given,
 * `pi-team-<key>-<UTC yyyymmdd-hhmmss>.html` in `cwd` (beside the leader's work, as Pi's own
 * `/export` does).
 */
export function exportFile(cwd: string, key: string, file: string | undefined, now: number = Date.now()): string {
  if (file) return isAbsolute(file) ? file : resolve(cwd, file);
  const stamp = new Date(now).toISOString().replace(/[-:]/g, "").replace("T", "-").slice(0, 15);
  return join(cwd, `pi-team-${key}-${stamp}.html`);
}

/**
 * Writes the export of session `s` to `file` (atomically; its directory must exist). Every
 * incarnation's transcript is Pi's export of its session file where that works, else its plain
 * lines, else a note why there is none: a transcript never fails the export.
 * @returns the file and how many transcripts are embedded. @throws when the file cannot be written.
 */
export async function writeRunExport(s: TeamSession, file: string, now: number = Date.now()): Promise<{ file: string; transcripts: number }> {
  const transcripts: ExportTranscript[] = [];
  for (const m of s.harness.members()) transcripts.push(await transcriptOf(s.piCli, m.name, m.spawnId, m.holdings.session));
  const html = exportPage({
    key: s.key,
    cwd: s.cwd,
    startedAt: s.feed.timeline.startedAt,
    endedAt: now,
    snapshot: s.snapshot(now),
    timeline: s.feed.timeline.events(),
    transcripts,
  });
  await writeFileAtomic(file, html, "utf8");
  return { file, transcripts: transcripts.filter((t) => t.html || t.lines).length };
}

async function transcriptOf(piCli: string, name: string, spawnId: string, dir: string | undefined): Promise<ExportTranscript> {
  if (!dir) return { name, spawnId, note: "No session file: its launcher runs pi elsewhere." };
  const session = await sessionFileIn(dir);
  if (!session) return { name, spawnId, note: "No conversation yet: Pi writes the session file at the first message." };
  const tmp = await mkdtemp(join(tmpdir(), "pi-team-export-"));
  try {
    const out = join(tmp, "session.html");
    await execa(process.execPath, [piCli, "--export", session, out], { timeout: PI_EXPORT_TIMEOUT_MS, stdin: "ignore" });
    if ((await stat(out)).size > PI_EXPORT_MAX_BYTES) throw new Error(`Pi's export is over ${PI_EXPORT_MAX_BYTES} bytes`);
    return { name, spawnId, html: await readFile(out, "utf8") };
  } catch (error) {
    const lines = await readTranscript(session);
    return { name, spawnId, lines: [`(Pi's export of ${session} failed: ${errorText(error).split("\n")[0]}; the plain transcript follows)`, ...lines] };
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}

/**
 * At a session's end, after its team stopped: writes the export to `PI_TEAMMATE_EXPORT` when that
 * names a file (relative to the leader's cwd; each session end of the process writes it again).
 * @returns the line for the user: where it went, or why it did not; undefined when unset.
 */
export async function exportAtEnd(s: TeamSession, env: NodeJS.ProcessEnv): Promise<string | undefined> {
  const file = env.PI_TEAMMATE_EXPORT?.trim();
  if (!file) return undefined;
  const target = exportFile(s.cwd, s.key, file);
  try {
    const r = await writeRunExport(s, target);
    return `pi-resident-teams: run exported to ${r.file} (PI_TEAMMATE_EXPORT).`;
  } catch (error) {
    return `pi-resident-teams: PI_TEAMMATE_EXPORT: the run export could not be written to ${target}: ${errorText(error)}`;
  }
}
