/**
 * The console scene: the user types `/agent-teams` in the leader. The demo's leader runs in RPC
 * mode, where Pi draws no custom components, so the command answers with the console's four pages
 * as plain text (a notification to the RPC client), taken from the team's memory: no model call.
 */
import type { Reply } from "../tests/support/scripted-model.ts";
import { withTimeout } from "./scripting.ts";
import type { Phase } from "./stage.ts";

/** The console phase. */
export function consolePhase(): Phase {
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
      log.line("console", "(plain-text summary; the TUI shows the same pages in the full-screen console)", ...text.split("\n"));
      const failures: string[] = [];
      for (const heading of ["Teammates (", "Roles (", "Board (", "Mail ("]) if (!text.includes(heading)) failures.push(`the console summary has no ${heading}…) page`);
      if (model.calls.length !== calls) failures.push(`/agent-teams made ${model.calls.length - calls} model call(s)`);
      const pages = ["Teammates", "Roles", "Board", "Mail"].map((p) => /\((\d+)\)/.exec(text.slice(text.indexOf(`${p} (`)))?.[1] ?? "?");
      return {
        summary: [`console: /agent-teams answered with ${pages[0]} teammates, ${pages[1]} roles, ${pages[2]} tasks and ${pages[3]} mail rows from the team's memory; model calls: ${model.calls.length - calls}`],
        failures,
      };
    },
  };
}
