/**
 * The console scene: the user types `/agent-teams` in the leader. The demo's leader runs in RPC
 * mode, where Pi draws no custom components, so the command answers with the console's four pages
 * as plain text (a notification to the RPC client), taken from the team's memory: no model call.
 * Then `/agent-teams export <file>` writes the whole run as one HTML page (kept where
 * `npm run demo -- --export <file>` says, else deleted with the temp project).
 */
import { copyFile, readFile } from "node:fs/promises";
import { join } from "node:path";
import type { Reply } from "../tests/support/scripted-model.ts";
import { withTimeout } from "./scripting.ts";
import type { Phase, Stage } from "./stage.ts";

/** The console phase. */
export function consolePhase(keepExport?: string): Phase {
  return {
    title: "console: /agent-teams shows the teammates, roles, board and mail",
    reply: (): Reply => ({ text: "ok" }),
    async run(stage) {
      const { leader, log, model } = stage;
      const calls = model.calls.length;
      let off: () => void = () => undefined;
      const answer = new Promise<string>((resolve) => {
        off = leader.proc.child.onUiRequest(({ request }) => {
          if (request.method === "notify" && request.message.startsWith("pi-resident-teams")) resolve(request.message);
        });
      });
      log.line("user", "→ leader /agent-teams");
      await leader.prompt("/agent-teams");
      const text = await withTimeout(answer, 10_000, "the leader never answered /agent-teams").finally(off);
      const exported = await exportRun(stage, keepExport);
      log.line("console", "(plain-text summary; the TUI shows the same pages in the full-screen console)", ...text.split("\n"));
      const failures: string[] = [];
      for (const heading of ["Teammates (", "Roles (", "Board (", "Mail ("]) if (!text.includes(heading)) failures.push(`the console summary has no ${heading}…) page`);
      if (model.calls.length !== calls) failures.push(`/agent-teams made ${model.calls.length - calls} model call(s)`);
      failures.push(...exported.failures);
      const pages = ["Teammates", "Roles", "Board", "Mail"].map((p) => /\((\d+)\)/.exec(text.slice(text.indexOf(`${p} (`)))?.[1] ?? "?");
      return {
        summary: [`console: /agent-teams answered with ${pages[0]} teammates, ${pages[1]} roles, ${pages[2]} tasks and ${pages[3]} mail rows from the team's memory; model calls: ${model.calls.length - calls}`, exported.summary],
        failures,
      };
    },
  };
}

/** `/agent-teams export`: the page is written, has a lane per teammate the run had, and is kept if asked. */
async function exportRun(stage: Stage, keep: string | undefined): Promise<{ summary: string; failures: string[] }> {
  const { leader, log } = stage;
  const file = join(stage.env.cwd, "..", "team-run.html");
  let off: () => void = () => undefined;
  const answer = new Promise<string>((resolve) => {
    off = leader.proc.child.onUiRequest(({ request }) => {
      if (request.method === "notify" && /run export|exported/.test(request.message)) resolve(request.message);
    });
  });
  log.line("user", `→ leader /agent-teams export ${file}`);
  await leader.prompt(`/agent-teams export ${file}`);
  const told = await withTimeout(answer, 60_000, "the leader never answered /agent-teams export").finally(off);
  log.line("leader", told);
  const html = await readFile(file, "utf8").catch(() => "");
  const lanes = [...html.matchAll(/<g class="lane" data-teammate="([^"]+)"/g)].map((m) => m[1]);
  const frames = (html.match(/<iframe /g) ?? []).length;
  const failures: string[] = [];
  if (!html) failures.push(`/agent-teams export wrote no ${file}: ${told}`);
  else if (lanes.length === 0) failures.push("the run export has no timeline lane");
  if (keep && html) await copyFile(file, keep);
  return { summary: `export: ${html.length} bytes, ${lanes.length} lanes (${lanes.join(", ")}), ${frames} embedded Pi transcripts${keep && html ? `, kept at ${keep}` : ""}`, failures };
}
