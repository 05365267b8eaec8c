import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { exportFile, exportTranscripts } from "../../../src/leader/run-export.ts";
import type { Member } from "../../../src/team/member.ts";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "run-export-unit-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const NOW = Date.UTC(2026, 11, 4, 13, 5, 9);

describe("exportFile (issue 20, /agent-teams export [file])", () => {
  it("names a default file in the working directory by session key and UTC time", async () => {
    expect(await exportFile(dir, "abc", undefined, NOW)).toBe(join(dir, "pi-team-abc-20261204-130509.html"));
    expect(await exportFile(dir, "abc", "  ", NOW)).toBe(join(dir, "pi-team-abc-20261204-130509.html"));
  });

  it("takes a relative file from the working directory, drops one pair of quotes and expands ~/", async () => {
    expect(await exportFile(dir, "k", "out/run.html")).toBe(join(dir, "out", "run.html"));
    expect(await exportFile(dir, "k", '"my  run.html"')).toBe(join(dir, "my  run.html"));
    expect(await exportFile(dir, "k", "'x.html'")).toBe(join(dir, "x.html"));
    expect(await exportFile(dir, "k", "~/runs/x.html")).toBe(join(homedir(), "runs", "x.html"));
  });

  it("puts the default name inside a directory it is given", async () => {
    await mkdir(join(dir, "runs"));
    expect(await exportFile(dir, "k", "runs", NOW)).toBe(join(dir, "runs", "pi-team-k-20261204-130509.html"));
  });
});

describe("exportTranscripts", () => {
  const HEADER = `${JSON.stringify({ type: "session", id: "s1", version: 3, timestamp: "2026-12-04T00:00:00Z", cwd: "/x" })}\n`;
  const USER = `${JSON.stringify({ type: "message", id: "m1", parentId: null, timestamp: "2026-12-04T00:00:01Z", message: { role: "user", content: "HELLO-MARKER", timestamp: 1 } })}\n`;
  const mate = (name: string, session?: string) => ({ name, spawnId: `${name}-id`, holdings: { session } }) as unknown as Member;
  const sessionDir = async (name: string): Promise<string> => {
    const d = join(dir, "sessions", name);
    await mkdir(d, { recursive: true });
    await writeFile(join(d, "2026-12-04_s1.jsonl"), HEADER + USER);
    return d;
  };
  const fakePi = async (body: string): Promise<string> => {
    const file = join(dir, `pi-${Math.random().toString(36).slice(2)}.mjs`);
    await writeFile(file, `import { writeFileSync, rmSync } from "node:fs";\nconst [, , flag, session, out] = process.argv;\n${body}\n`);
    return file;
  };

  it("embeds what `pi --export <session> <out>` wrote", async () => {
    const pi = await fakePi('writeFileSync(out, `<html>PAGE of ${flag} ${session.endsWith(".jsonl")}</html>`);');
    const [t] = await exportTranscripts(pi, [mate("ann", await sessionDir("ann"))]);
    expect(t).toEqual({ name: "ann", spawnId: "ann-id", html: "<html>PAGE of --export true</html>" });
  });

  it("gives way to the plain transcript, with the reason, when Pi's export fails", async () => {
    const pi = await fakePi("process.exit(3);");
    const [t] = await exportTranscripts(pi, [mate("ann", await sessionDir("ann"))]);
    expect(t?.html).toBeUndefined();
    expect(t?.lines?.[0]).toMatch(/^\(Pi's export of .*\.jsonl was not embedded: .*; the plain transcript follows\)$/);
    expect(t?.lines?.join("\n")).toContain("HELLO-MARKER");
  });

  it("never rejects: a session file removed under it, no session dir, no conversation yet", async () => {
    const pi = await fakePi("rmSync(session); process.exit(1);");
    const empty = join(dir, "sessions", "cal");
    await mkdir(empty, { recursive: true });
    const out = await exportTranscripts(pi, [mate("ann", await sessionDir("ann")), mate("bob"), mate("cal", empty)]);
    expect(out.map((t) => t.name)).toEqual(["ann", "bob", "cal"]);
    expect(out[0]?.lines?.join("\n")).toMatch(/not embedded|could not be read/);
    expect(out[1]?.note).toBe("No session file: its launcher runs pi elsewhere.");
    expect(out[2]?.note).toMatch(/^No conversation yet/);
  });
});
