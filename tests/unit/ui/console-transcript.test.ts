/**
 * The Teammates page's transcript (issue 20): `t` opens the selected teammate's transcript at its
 * end, scrolls like a detail, is read again on refresh while the teammate works (not while idle),
 * and Esc goes back to the list. Also the session-file reader and its lines.
 */
import { mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { readTranscript, transcriptLines } from "../../../src/feed/index.ts";
import { TranscriptView } from "../../../src/ui/transcript-view.ts";
import { KEY, makeConsole } from "./fixture.ts";

const settle = () => new Promise((r) => setTimeout(r, 0));

describe("TeamConsole: the transcript (t)", () => {
  it("opens at the end of the selected teammate's transcript, scrolls, and Esc goes back", async () => {
    const c = makeConsole({ rows: 12, columns: 80 });
    c.press("t");
    expect(c.actions.transcript).toHaveBeenCalledWith("scout");
    expect(c.screen().join("\n")).toContain("reading its session file");
    await settle();
    const end = c.screen().join("\n");
    expect(end).toContain("line 60 of scout");
    expect(end).not.toContain("hello scout");
    expect(end).toMatch(/\d+-\d+\/\d+/);
    c.press(KEY.home);
    const top = c.screen().join("\n");
    expect(top).toContain("Transcript of @scout");
    expect(top).toContain("hello scout");
    c.press(KEY.esc);
    expect(c.screen().join("\n")).toContain("t transcript");
  });

  it("is read again on refresh while its teammate works, not once it is idle; t elsewhere says where it works", async () => {
    const c = makeConsole({ rows: 12, columns: 80 });
    c.press(KEY.down); // alice: working
    c.press("t");
    await settle();
    const reads = c.actions.transcript.mock.calls.length;
    c.console.refresh();
    await settle();
    expect(c.actions.transcript.mock.calls.length).toBe(reads + 1);
    c.press(KEY.esc, KEY.down); // bob: idle
    c.press("t");
    await settle();
    const idle = c.actions.transcript.mock.calls.length;
    c.console.refresh();
    await settle();
    expect(c.actions.transcript.mock.calls.length).toBe(idle);
    c.press(KEY.esc, KEY.tab, "t");
    expect(c.screen().join("\n")).toContain("t shows a transcript on the Teammates page");
  });
});

describe("TranscriptView", () => {
  it("reads again while its teammate works, once more when it stops working, then not", async () => {
    let reads = 0;
    const view = new TranscriptView("a", async () => [`read ${++reads}`], () => undefined);
    await settle();
    const refresh = async (status: "working" | "idle") => {
      view.refresh([{ name: "a", status }]);
      await settle();
    };
    await refresh("working");
    await refresh("working");
    expect(reads).toBe(3);
    await refresh("idle"); // its last reply lands just before it goes idle
    await refresh("idle");
    await refresh("idle");
    expect(reads).toBe(4);
    expect(view.row.detail()).toEqual(["Transcript of @a", "read 4"]);
  });

  it("an error naming a path with escape sequences is drawn as one safe line", async () => {
    const view = new TranscriptView("a", async () => {
      throw new Error("ENOENT: /x/\x1b]52;c;cGF5bG9hZA==\x07\x1b[2Jevil.jsonl");
    }, () => undefined);
    await settle();
    const [, line] = view.row.detail();
    expect(line).toContain("could not read the transcript");
    expect(line).not.toMatch(/\x1b|\x07/);
  });
});

describe("a transcript from a session file", () => {
  const dirs: string[] = [];
  afterEach(async () => Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true }))));

  it("shows user and assistant text, tool calls and the first lines of results, terminal-safe", () => {
    const lines = transcriptLines([
      { type: "session", id: "x" },
      { type: "message", message: { role: "user", content: "do \x1b[31mit\x1b[0m" } },
      { type: "message", message: { role: "assistant", content: [{ type: "thinking", thinking: "hmm" }, { type: "text", text: "on it" }, { type: "toolCall", name: "bash", arguments: { command: "ls" } }] } },
      { type: "message", message: { role: "toolResult", toolName: "bash", isError: true, content: [{ type: "text", text: Array.from({ length: 12 }, (_, i) => `r${i}`).join("\n") }] } },
      { type: "compaction", summary: "s" },
      { type: "message", message: { role: "user", content: `${"x".repeat(5000)}\n${Array.from({ length: 300 }, () => "y").join("\n")}` } },
      "garbage",
    ]);
    const long = lines.slice(lines.indexOf("— context compacted —") + 1);
    expect(long[2]).toBe(`  ${"x".repeat(2000)}… (cut)`);
    expect(long.at(-1)).toBe("  … (101 more lines)");
    lines.splice(lines.indexOf("— context compacted —") + 1);
    expect(lines).toEqual([
      "", "user:", "  do it",
      "", "assistant:", "  on it", '  → bash {"command":"ls"}',
      "  ← bash (error):", ...Array.from({ length: 8 }, (_, i) => `    r${i}`), "    … (4 more lines)",
      "", "— context compacted —",
    ]);
  });

  it("reads a session file, not a symlink", async () => {
    const dir = await mkdtemp(join(tmpdir(), "prt-transcript-"));
    dirs.push(dir);
    const file = join(dir, "s.jsonl");
    await writeFile(file, `${JSON.stringify({ type: "session", id: "x" })}\nnot json\n${JSON.stringify({ type: "message", message: { role: "user", content: "HELLO" } })}\n`);
    expect(await readTranscript(file)).toEqual(["", "user:", "  HELLO"]);
    await symlink(file, join(dir, "link.jsonl"));
    await expect(readTranscript(join(dir, "link.jsonl"))).rejects.toThrow();
  });
});
