import type { ExtensionAPI, ExtensionContext } from "@earendil-works/pi-coding-agent";
import { applyTeamModelCommand, TEAM_MODEL_USAGE } from "../team/model-choice.ts";
import type { ModelRef } from "../team/spawn-plan.ts";
import type { TeamSession } from "./team-session.ts";

/** Usage of `/agent-teams`, until the console (issue: console) takes the bare command over. */
export const AGENT_TEAMS_USAGE = `Usage: ${TEAM_MODEL_USAGE}: the team default model for this session (roles without a model field).`;

/**
 * Registers `/agent-teams` (R61, for now only its `model` subcommand): `/agent-teams model
 * <provider/id>` sets the session's team default model (R6) after checking it against Pi's model
 * registry; `default` clears it (Pi's own default). The bare command shows the setting.
 */
export function registerTeamCommands(pi: ExtensionAPI, session: () => TeamSession | undefined): void {
  pi.registerCommand("agent-teams", {
    description: "Resident teams: /agent-teams model <provider/id|default> sets the team default model",
    handler: async (args, ctx) => {
      const s = session();
      if (!s) return ctx.ui.notify("pi-resident-teams: the team is not running in this session.", "error");
      const [sub, ...rest] = args.trim().split(/\s+/).filter(Boolean);
      if (sub === undefined) return ctx.ui.notify(`${s.teamModel.describe()}\n${AGENT_TEAMS_USAGE}`, "info");
      if (sub !== "model") return ctx.ui.notify(`Unknown subcommand ${JSON.stringify(sub)}. ${AGENT_TEAMS_USAGE}`, "error");
      const known = knownModels(ctx);
      if (!known) return ctx.ui.notify("pi-resident-teams: Pi's model registry could not be read; the team model is unchanged.", "error");
      const r = applyTeamModelCommand(s.teamModel, rest.join(" "), known);
      ctx.ui.notify(r.message, r.ok ? "info" : "error");
    },
  });
}

/** Every model Pi's registry knows; undefined when the registry cannot be read (no check then). */
export function knownModels(ctx: Pick<ExtensionContext, "modelRegistry">): ModelRef[] | undefined {
  try {
    return ctx.modelRegistry.getAll().map((m) => ({ provider: m.provider, id: m.id }));
  } catch {
    return undefined;
  }
}
