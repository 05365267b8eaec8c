/**
 * Shared setup of the registerEditGuards tests: a temp project, runtime dir (with roster.json)
 * and board dir, and the guards of teammate "alice" on a fake `pi` whose file tools run in the
 * project.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { RosterFile } from "../../../src/mail/index.ts";
import { registerEditGuards } from "../../../src/worker/edit-guards.ts";
import { createFakePi, FakeFileTools, makeGuardDirs } from "../../support/fake-pi.ts";
import { useTempDirs } from "../store/tmp.ts";

export const roster = (holds: { tag: string; taskId?: string }[], bobStatus: "working" | "stopped" = "working"): RosterFile => ({
  v: 1,
  updatedAt: 1,
  teammates: [
    { name: "alice", agent: "w", spawnId: "s-1", status: "working", tools: [] },
    { name: "bob", agent: "w", spawnId: "s-2", status: bobStatus, tools: [], holds },
  ],
});

async function setup(tempDir: () => Promise<string>, options: { roster?: RosterFile | string | null } = {}) {
  const root = await tempDir();
  const { project, runtimeDir, boardDir } = await makeGuardDirs(root);
  const rosterPath = join(runtimeDir, "roster.json");
  const r = options.roster === undefined ? roster([{ tag: "src/api", taskId: "t-3" }]) : options.roster;
  if (r !== null) await writeFile(rosterPath, typeof r === "string" ? r : JSON.stringify(r));
  const fake = createFakePi();
  const notes: string[] = [];
  const off = registerEditGuards(fake.pi, { name: "alice", runtimeDir, boardDir }, { note: (l) => notes.push(l) });
  const tools = new FakeFileTools(fake, project);
  const put = async (path: string, text: string) => {
    await mkdir(dirname(join(project, path)), { recursive: true });
    await writeFile(join(project, path), text);
  };
  return { root, project, runtimeDir, boardDir, fake, tools, off, notes, put, rosterPath };
}

/** Registers temp-dir cleanup for the calling test file and returns its `setup`. */
export function setupGuards(): (options?: { roster?: RosterFile | string | null }) => ReturnType<typeof setup> {
  const tempDir = useTempDirs();
  return (options = {}) => setup(tempDir, options);
}
