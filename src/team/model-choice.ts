/**
 * Which model a teammate runs (R6, L14), whether a pinned model exists, and the session-wide
 * team model setting. Everything but {@link TeamModelSetting} is pure.
 */
import { compareCloseness, closeness, type Closeness } from "../agents/near-miss.ts";
import { parseModelField } from "../agents/model.ts";
import type { AgentModel } from "../agents/types.ts";
import type { ModelRef } from "./spawn-plan.ts";

/** Which rule of R6 chose the model. */
export type ModelSource = "pin" | "inherit" | "team-default" | "pi-default";

/** Inputs of {@link resolveTeammateModel}; the caller re-reads the leader's state at every spawn. */
export interface TeammateModelInput {
  /** The role's `model` field; `undefined` when the definition has none. */
  role: AgentModel | undefined;
  /** The leader's current model (`ctx.model`), `undefined` when it has none. */
  leader: ModelRef | undefined;
  /** The leader's current thinking level (`ctx.thinkingLevel`, e.g. `high`). */
  leaderThinking: string | undefined;
  /** The team model set for this session ({@link TeamModelSetting.get}). */
  teamDefault: ModelRef | undefined;
}

/** The resolved choice: `model` undefined means no `--model` flag (Pi's own default). */
export interface TeammateModelChoice {
  model: ModelRef | undefined;
  /** Set only for `inherit` (the leader's level); otherwise the child uses Pi's default level. */
  thinking: string | undefined;
  source: ModelSource;
}

/**
 * Resolves a teammate's model (R6, L14). Pure; never throws. Precedence:
 * 1. `pin`: the role's explicit `provider/id`.
 * 2. `inherit`: the role says `inherit` and the leader has a model: the leader's current model
 *    AND thinking level (L14: `inherit` is resolved here, never passed to Pi as a model name).
 * 3. `team-default`: the team model set for this session.
 * 4. `pi-default`: nothing; the child gets no `--model` flag and Pi picks its default.
 *
 * A role without a `model` field skips rule 2. `inherit` while the leader has no model falls
 * through to rules 3 and 4 (the nearest thing to "what the team uses"), and then carries no
 * thinking level: thinking is inherited only together with the leader's model.
 */
export function resolveTeammateModel(input: TeammateModelInput): TeammateModelChoice {
  const { role, leader, leaderThinking, teamDefault } = input;
  if (role?.kind === "pin") return { model: { provider: role.provider, id: role.id }, thinking: undefined, source: "pin" };
  if (role?.kind === "inherit" && leader) return { model: { ...leader }, thinking: leaderThinking, source: "inherit" };
  if (teamDefault) return { model: { ...teamDefault }, thinking: undefined, source: "team-default" };
  return { model: undefined, thinking: undefined, source: "pi-default" };
}

/**
 * The pi CLI flags for a choice: `--provider <p> --model <id>` when there is a model, then
 * `--thinking <level>` when there is a level; `[]` for Pi's default. Pure.
 */
export function modelFlags(choice: TeammateModelChoice): string[] {
  const flags = choice.model ? ["--provider", choice.model.provider, "--model", choice.model.id] : [];
  if (choice.thinking !== undefined) flags.push("--thinking", choice.thinking);
  return flags;
}

/** Renders a model as `provider/id`. */
export const formatModelRef = (model: ModelRef): string => `${model.provider}/${model.id}`;

/**
 * Known models close to `wanted`, best first, rendered `provider/id`, at most `max`. Pure.
 *
 * Case-insensitive. A model of the same provider ranks before any other; then models whose id
 * equals the wanted id ignoring case, then ids containing (or contained in) it, then ids a few
 * edits away (at most a quarter of the wanted id's length, at least 2: model ids share long
 * prefixes such as `claude-`). When the id is not close, the whole `provider/id` is compared the
 * same way, which catches a misspelt provider.
 * Duplicates and an exact match are left out.
 */
export function closeModelMatches(wanted: ModelRef, known: readonly ModelRef[], max = 5): string[] {
  const provider = wanted.provider.toLowerCase();
  const whole = formatModelRef(wanted);
  const idEdits = Math.max(2, Math.floor(wanted.id.length / 4));
  const scored = new Map<string, { same: boolean; close: Closeness; index: number }>();
  known.forEach((model, index) => {
    const name = formatModelRef(model);
    if (name === whole || scored.has(name)) return;
    const close = closeness(wanted.id, model.id, idEdits) ?? closeness(whole, name, idEdits);
    if (close) scored.set(name, { same: model.provider.toLowerCase() === provider, close, index });
  });
  return [...scored.entries()]
    .sort(([, a], [, b]) => Number(b.same) - Number(a.same) || compareCloseness(a.close, b.close) || a.index - b.index)
    .slice(0, max)
    .map(([name]) => name);
}

/** Outcome of {@link checkModel}. */
export type ModelCheck = { ok: true } | { ok: false; message: string };

/** How many registry models a refusal lists when nothing is close. */
const SAMPLE_SIZE = 5;

/**
 * Checks that `wanted` is in Pi's model registry (exact provider and id, as Pi's `find` does).
 * `known` is the list to check against (`ctx.modelRegistry.getAll()` or `getAvailable()`, mapped
 * to `{ provider, id }`). Pure; never throws.
 * @returns `{ ok: false, message }` naming the model, saying it is not in Pi's model registry,
 *   listing close matches (or, when nothing is close, a few known models, same provider first),
 *   and saying where models come from.
 */
export function checkModel(wanted: ModelRef, known: readonly ModelRef[]): ModelCheck {
  if (known.some((m) => m.provider === wanted.provider && m.id === wanted.id)) return { ok: true };
  const close = closeModelMatches(wanted, known);
  let listing: string;
  if (close.length > 0) listing = `Close matches: ${close.join(", ")}.`;
  else if (known.length === 0) listing = "The registry has no models at all.";
  else {
    const names = [...new Set(sameProviderFirst(wanted, known).map(formatModelRef))];
    const more = names.length > SAMPLE_SIZE ? ` (and ${names.length - SAMPLE_SIZE} more)` : "";
    listing = `Nothing close; known models include ${names.slice(0, SAMPLE_SIZE).join(", ")}${more}.`;
  }
  return {
    ok: false,
    message:
      `Model "${formatModelRef(wanted)}" is not in Pi's model registry. ${listing} ` +
      "Models come from Pi's model registry: the built-in providers and the models defined in models.json " +
      "in Pi's agent directory (`pi --list-models` shows the ones with credentials). " +
      "Use one of those as provider/id, or add the model to models.json.",
  };
}

function sameProviderFirst(wanted: ModelRef, known: readonly ModelRef[]): ModelRef[] {
  const same = (m: ModelRef) => m.provider.toLowerCase() === wanted.provider.toLowerCase();
  return [...known.filter(same), ...known.filter((m) => !same(m))];
}

/** Outcome of {@link parseTeamModelSetting}: `model` undefined means "back to Pi's default". */
export type TeamModelParse = { ok: true; model: ModelRef | undefined } | { ok: false; message: string };

/** The argument forms of `/agent-teams model`, for messages. */
export const TEAM_MODEL_USAGE = "/agent-teams model <provider/id> (e.g. anthropic/claude-sonnet-4) or /agent-teams model default";

/**
 * Parses the argument of `/agent-teams model <provider/id|default>` (R6 rule 3): the text after
 * `model`. Pure; never throws. Surrounding whitespace is ignored.
 * - `default` (any case) or empty: clears the team model (`model: undefined`).
 * - `provider/id` (the frontmatter form, split at the first `/`): sets it. Whether the model
 *   exists is {@link checkModel}'s job.
 * - anything else, including `inherit` (a role field value, not a team model): `{ ok: false }`
 *   with a message naming the value and the accepted forms.
 */
export function parseTeamModelSetting(text: string): TeamModelParse {
  const value = text.trim();
  if (value === "" || value.toLowerCase() === "default") return { ok: true, model: undefined };
  const parsed = parseModelField(value);
  if (parsed?.kind === "pin") return { ok: true, model: { provider: parsed.provider, id: parsed.id } };
  const why =
    parsed?.kind === "inherit"
      ? "inherit is a role's model field value (the leader's model); the team model must name a model."
      : "expected provider/id (a provider without / or spaces, then a model id without spaces).";
  return {
    ok: false,
    message: `Cannot set the team model to ${JSON.stringify(value)}: ${why} Accepted forms: ${TEAM_MODEL_USAGE}.`,
  };
}

/**
 * The session-wide teammate model (R6 rule 3), used for roles without a `model` field (and for
 * `inherit` when the leader has no model). One instance per leader session; nothing is persisted
 * and there is no module-level state. {@link TeamModelSetting.set} is the one way to change it
 * (the `/agent-teams model` command calls it; a console would too).
 */
export class TeamModelSetting {
  #model: ModelRef | undefined;

  /** Starts unset (Pi's default) unless `initial` is given. */
  constructor(initial?: ModelRef) {
    this.#model = initial ? { ...initial } : undefined;
  }

  /** The current team model, a copy; `undefined` means Pi's default. */
  get(): ModelRef | undefined {
    return this.#model ? { ...this.#model } : undefined;
  }

  /** Sets the team model, or clears it with `undefined`. Does not check the registry (see {@link checkModel}). */
  set(model: ModelRef | undefined): void {
    this.#model = model ? { provider: model.provider, id: model.id } : undefined;
  }

  /** One line for the console and command replies: `team model: p/id (set for this session)` or `team model: Pi default`. */
  describe(): string {
    return this.#model ? `team model: ${formatModelRef(this.#model)} (set for this session)` : "team model: Pi default";
  }
}

/** Outcome of {@link applyTeamModelCommand}; `message` is the reply to show either way. */
export type TeamModelCommandResult = { ok: boolean; message: string };

/**
 * Runs `/agent-teams model <argument>`: parses the argument, checks a `provider/id` against
 * `known` (see {@link checkModel}) and, only when both pass, calls `setting.set`. On success the
 * message is `setting.describe()`; on failure the setting is unchanged and the message says why.
 * Never throws.
 */
export function applyTeamModelCommand(setting: TeamModelSetting, argument: string, known: readonly ModelRef[]): TeamModelCommandResult {
  const parsed = parseTeamModelSetting(argument);
  if (!parsed.ok) return parsed;
  if (parsed.model) {
    const check = checkModel(parsed.model, known);
    if (!check.ok) return check;
  }
  setting.set(parsed.model);
  return { ok: true, message: setting.describe() };
}
