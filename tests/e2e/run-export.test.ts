/**
 * Issue 20 scope 5 on the real pi CLI: the run export. `npm run demo -- --export <file>` plays
 * the demo (a real leader pi, its teammates, the board scene with its reviewers) and ends with
 * `/agent-teams export`; the page opens in headless Chromium with no console error, draws one
 * timeline lane per teammate the run had, and embeds Pi's own export of each transcript, which
 * renders. `PI_TEAMMATE_EXPORT` does the same at the end of a `pi -p` run, and the command works
 * in the real TUI (tmux). The browser check is
 * skipped where Chromium is missing; `UPDATE_DOCS=1` keeps the screenshot as docs/run-export.png.
 */
import { execFile } from "node:child_process";
import { copyFile, mkdir, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { CHROMIUM, visitPage } from "../support/chromium.ts";
import { closeHeadless, exitOf, startHeadless, type HeadlessRun } from "../support/headless.ts";
import { agentFile, PACKAGE_DIR } from "../support/leader.ts";
import type { ModelCall, Reply } from "../support/scripted-model.ts";
import { sendCall, spawnCall, waitUntil } from "../support/team.ts";
import { HAS_TMUX, startTuiTeam, type TuiTeam } from "../support/tmux.ts";

const run = promisify(execFile);
let dir: string | undefined;
let headless: HeadlessRun | undefined;
let tuiTeam: TuiTeam | undefined;
afterEach(async () => {
  await tuiTeam?.stop();
  tuiTeam = undefined;
  if (headless) await closeHeadless(headless);
  headless = undefined;
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

/** Names in the export's Teammates table (`<td>@name</td>`), each once. */
function teammatesOf(html: string): string[] {
  return [...new Set([...html.matchAll(/<tr><td>@([^<]+)<\/td>/g)].map((m) => m[1]!))];
}

describe("the run export", () => {
  it.skipIf(!CHROMIUM)("of the demo opens in headless Chromium with no console error, one lane per teammate and Pi's transcripts rendered", async () => {
    dir = await mkdtemp(join(tmpdir(), "run-export-"));
    const file = join(dir, "run.html");
    const demo = await run(process.execPath, ["demo/run.ts", "--export", file], { cwd: PACKAGE_DIR, maxBuffer: 64 * 1024 * 1024 }).catch((e: { stdout?: string; message: string }) => {
      throw new Error(`the demo failed: ${e.message}\n${e.stdout?.slice(-4000) ?? ""}`);
    });
    expect(demo.stdout).toContain("All checks held.");
    const html = await readFile(file, "utf8");
    const names = teammatesOf(html);
    expect(names).toEqual(expect.arrayContaining(["ana", "ben", "cy", "dee"]));
    const shot = join(dir, "run-export.png");
    const visit = await visitPage(file, async (page) => {
      const lanes = await page.locator("svg.timeline g.lane").evaluateAll((gs) => gs.map((g) => ({ name: g.getAttribute("data-teammate"), height: g.getBoundingClientRect().height, bars: g.querySelectorAll("rect.phase").length })));
      await page.locator("h1").scrollIntoViewIfNeeded();
      await page.screenshot({ path: shot });
      // Every transcript opened: Pi's export script runs in its frame and draws the conversation.
      await page.locator("details.transcript").evaluateAll((ds) => ds.forEach((d) => d.setAttribute("open", "")));
      const frames = page.frames().filter((f) => f !== page.mainFrame());
      await Promise.all(frames.map((f) => f.waitForLoadState("load")));
      const texts = await Promise.all(frames.map((f) => f.locator("body").innerText({ timeout: 10_000 })));
      return { lanes, texts };
    });
    expect(visit.errors).toEqual([]);
    expect(visit.seen.lanes.map((l) => l.name)).toEqual(names);
    for (const lane of visit.seen.lanes) {
      expect(lane.height, `@${lane.name}'s lane`).toBeGreaterThan(10);
      expect(lane.bars, `@${lane.name}'s phase bars`).toBeGreaterThan(0);
    }
    expect(visit.seen.texts).toHaveLength(names.length);
    // Pi's script drew the conversations (the session data is base64 in a script tag, not text).
    expect(visit.seen.texts.some((t) => t.includes("Finish what cy started") && t.includes("src/welcome.js"))).toBe(true);
    if (process.env.UPDATE_DOCS === "1") await copyFile(shot, join(PACKAGE_DIR, "docs", "run-export.png"));
  }, 240_000);

  it("PI_TEAMMATE_EXPORT writes it when a pi -p run ends, with the teammate's lane and transcript", async () => {
    const leader = (c: ModelCall): Reply => {
      if (c.lastUser.includes("<teammate-report")) return { text: "FINAL: alice reported." };
      if (c.toolResults.length > 0) return { text: "Spawned; waiting for alice." };
      return { toolCalls: [spawnCall("alice", "worker", "KICKOFF-EXPORT: say hello")] };
    };
    const alice = (c: ModelCall): Reply => (c.toolResults.length > 0 ? { text: "Reported." } : { toolCalls: [sendCall("leader", "hello from alice", "completed")] });
    headless = await startHeadless((c) => (c.agent === "leader" ? leader(c) : alice(c)), { "worker.md": agentFile("worker", "You are a worker.", { tools: "read" }) }, { PI_TEAMMATE_EXPORT: "out/run.html" });
    await mkdir(join(headless.env.cwd, "out"));
    const exit = await exitOf(headless, 90_000);
    expect(exit.code).toBe(0);
    const file = join(headless.env.cwd, "out", "run.html");
    expect(headless.stderr()).toContain(`run exported to ${file} (PI_TEAMMATE_EXPORT)`);
    const html = await readFile(file, "utf8");
    expect(teammatesOf(html)).toEqual(["alice"]);
    expect(html).toContain('<g class="lane" data-teammate="alice">');
    expect(html).toContain("hello from alice"); // the Mail row
    expect(html.match(/<iframe sandbox="allow-scripts"/g)).toHaveLength(1);
    // Pi's export of alice's session, inside the frame: its session data is base64 in a script tag.
    const data = /id=&quot;session-data&quot; type=&quot;application\/json&quot;&gt;([A-Za-z0-9+/=]+)&lt;/.exec(html)?.[1] ?? "";
    expect(Buffer.from(data, "base64").toString("utf8")).toContain("KICKOFF-EXPORT");
  }, 120_000);

  it.skipIf(!HAS_TMUX)("/agent-teams export in the real TUI writes the file it names and says where", async () => {
    tuiTeam = await startTuiTeam({
      size: { columns: 120, rows: 36 },
      handler: (c) => {
        if (c.agent === "leader") return c.lastUser === "SPAWN" && c.toolResults.length === 0 ? { toolCalls: [spawnCall("ada", "worker", "KICKOFF: report")] } : { text: "Noted." };
        return c.toolResults.length > 0 ? { text: "Reported." } : { toolCalls: [sendCall("leader", "ada is done", "completed")] };
      },
      agents: { "worker.md": agentFile("worker", "You are a worker.", { tools: "read" }) },
    });
    const { tui: t, env } = tuiTeam;
    await waitUntil("the TUI to show the model", () => /scripted-1\s*$/m.test(t.screen()), 30_000);
    t.type("SPAWN");
    await waitUntil("ada's report in the transcript", () => t.screen().includes("ada is done"), 30_000);
    t.type('/agent-teams export "ada run.html"');
    const file = join(env.cwd, "ada run.html");
    await waitUntil("the export notice", () => t.screen().replace(/\s+/g, " ").includes("run exported to"), 30_000);
    expect(t.screen().replace(/\s+/g, "")).toContain(`${file}(1transcript)`.replace(/\s+/g, ""));
    const html = await readFile(file, "utf8");
    expect(teammatesOf(html)).toEqual(["ada"]);
    expect(html).toContain("ada is done");
  }, 120_000);
});
