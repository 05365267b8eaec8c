import type { AgentDefinition } from "../agents/index.ts";
import { ENV } from "./identity.ts";

/** The capability tools every teammate gets on top of its role tools (L5). */
export const WORKER_TOOLS = ["send_message", "task_list", "task_claim", "task_submit"] as const;

/** A model as `--provider`/`--model` flags name it. */
export interface ModelRef {
  provider: string;
  id: string;
}

/** Everything needed to start one teammate child. */
export interface SpawnPlan {
  /** Arguments after the pi CLI script. */
  args: string[];
  /** Identity variables added to the leader's environment. */
  env: Record<string, string>;
  /** Effective tool grant: role tools, then capability tools. */
  tools: string[];
  /** The model the child is pinned to, or undefined for Pi's own default. */
  model: ModelRef | undefined;
}

/** Inputs of `planSpawn`. */
export interface SpawnPlanInput {
  name: string;
  spawnId: string;
  agent: AgentDefinition;
  /** The leader's current model (`ctx.model`), re-read at every spawn. */
  leaderModel: ModelRef | undefined;
  /** Directory of this package, loaded into the child with `-e`. */
  packageDir: string;
  runtimeDir: string;
  boardDir: string;
  leaderPid: number;
}

/**
 * Builds the child command line (R13, R19): `--mode rpc --no-session --no-extensions -e
 * <package> --tools <role tools + worker tools>` plus model flags. The model is the role's
 * `provider/id` pin, else the leader's current model (`inherit` and no `model` field both mean
 * that until the session-wide model setting exists); with neither, no flag (Pi's default).
 * A role without a `tools` field gets only the capability tools (L5).
 */
export function planSpawn(input: SpawnPlanInput): SpawnPlan {
  const roleTools = input.agent.tools ?? [];
  const tools = [...new Set([...roleTools, ...WORKER_TOOLS])];
  const pin = input.agent.model?.kind === "pin" ? input.agent.model : undefined;
  const model = pin ? { provider: pin.provider, id: pin.id } : input.leaderModel;
  const args = [
    "--mode", "rpc",
    "--no-session",
    "--no-extensions",
    "-e", input.packageDir,
    "--tools", tools.join(","),
    "--name", `team:${input.name}`,
  ];
  if (model) args.push("--provider", model.provider, "--model", model.id);
  const env = {
    [ENV.role]: "worker",
    [ENV.name]: input.name,
    [ENV.spawnId]: input.spawnId,
    [ENV.runtimeDir]: input.runtimeDir,
    [ENV.boardDir]: input.boardDir,
    [ENV.leaderPid]: String(input.leaderPid),
  };
  return { args, env, tools, model };
}
