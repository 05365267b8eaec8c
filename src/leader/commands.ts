import type { ExtensionAPI, ExtensionContext } from "@earendil-works/pi-coding-agent";
import { errorText } from "../error-text.ts";
import { knownModels } from "./model-registry.ts";
import { applyTeamModelCommand, TEAM_MODEL_USAGE } from "../team/model-choice.ts";
import type { TeamSession } from "./team-session.ts";
import { CONSOLE_PAGES } from "../ui/console-model.ts";
import { exportFile, writeRunExport } from "./run-export.ts";
import { sendAsUser } from "./user-orders.ts";
import { openConsole } from "./team-ui.ts";

/** Usage of `/agent-teams`. */
export const AGENT_TEAMS_USAGE = `Usage: /agent-teams [${CONSOLE_PAGES.join("|")}] opens the console (a plain-text summary outside the TUI); /agent-teams export [file] writes the run as one HTML page; /agent-teams send <name> <text> messages a teammate as you; ${TEAM_MODEL_USAGE}: the team default model for this session (roles without a model field).`;

/**
 * Registers `/agent-teams` (R61): bare, or with a page name, it opens the console on that page
 * (src/leader/team-ui.ts); `/agent-teams model <provider/id>` sets the session's team default model
 * (R6) after checking it against Pi's model registry, and `default` clears it (Pi's own default);
 * `/agent-teams export [file]` writes the run export (issue 20, src/leader/run-export.ts).
 */
export function registerTeamCommands(pi: ExtensionAPI, session: () => TeamSession | undefined): void {
  pi.registerCommand("agent-teams", {
    description: "Resident teams: the console (teammates, roles, board, mail); /agent-teams export [file] writes the run as HTML; /agent-teams send <name> <text> messages a teammate; /agent-teams model <provider/id|default> sets the team model",
    handler: async (args, ctx) => {
      const tell = (text: string, level: "info" | "error"): void => reply(ctx, text, level);
      const s = session();
      if (!s) return tell("pi-resident-teams: the team is not running in this session.", "error");
      const [sub, ...rest] = args.trim().split(/\s+/).filter(Boolean);
      if (sub === undefined) return openConsole(ctx, s);
      const page = CONSOLE_PAGES.find((p) => p === sub.toLowerCase());
      if (page) return openConsole(ctx, s, page);
      if (sub === "export") return exportCommand(s, args.trim().slice(sub.length), tell);
      if (sub === "send") return sendCommand(s, args.trim().slice(sub.length), tell);
      if (sub !== "model") return tell(`Unknown subcommand ${JSON.stringify(sub)}. ${AGENT_TEAMS_USAGE}`, "error");
      const known = knownModels(ctx);
      if (!known) return tell("pi-resident-teams: Pi's model registry could not be read; the team model is unchanged.", "error");
      const r = applyTeamModelCommand(s.teamModel, rest.join(" "), known);
      tell(r.message, r.ok ? "info" : "error");
    },
  });
}

/** `/agent-teams send <name> <text>`: the user's message (src/leader/user-orders.ts), or why it was not sent. */
async function sendCommand(s: TeamSession, rest: string, tell: (text: string, level: "info" | "error") => void): Promise<void> {
  const m = /^\s*@?(\S+)\s+([\s\S]+)$/.exec(rest);
  if (!m) return tell(`Usage: /agent-teams send <name> <text>; living: ${s.harness.members().filter((x) => x.living).map((x) => x.name).join(", ") || "(none)"}.`, "error");
  try {
    tell(`pi-resident-teams: ${await sendAsUser((req) => s.harness.sendFromUser(req), s.leaderNote, m[1]!, m[2]!)}`, "info");
  } catch (error) {
    tell(`pi-resident-teams: ${errorText(error)}`, "error");
  }
}

/** `/agent-teams export [file]`: the file written and what it holds, or why it was not. */
async function exportCommand(s: TeamSession, file: string, tell: (text: string, level: "info" | "error") => void): Promise<void> {
  let target = file;
  try {
    target = await exportFile(s.cwd, s.key, file);
    const r = await writeRunExport(s, target);
    tell(`pi-resident-teams: run exported to ${r.file} (${r.transcripts} transcript${r.transcripts === 1 ? "" : "s"}).`, "info");
  } catch (error) {
    tell(`pi-resident-teams: the run export could not be written to ${target}: ${errorText(error)}`, "error");
  }
}

/**
 * A command's answer: a notice where Pi has a UI; under `pi -p` and json mode (no UI, where a
 * notice would vanish) a line on stderr, and an error makes the run's exit code 1.
 */
function reply(ctx: Pick<ExtensionContext, "hasUI" | "ui">, text: string, level: "info" | "error"): void {
  if (ctx.hasUI) return ctx.ui.notify(text, level);
  process.stderr.write(`${text}\n`);
  if (level === "error") process.exitCode = 1;
}
