import { describe, expect, it } from "vitest";
import type { AgentModel } from "../../../src/agents/index.ts";
import {
  applyTeamModelCommand,
  checkModel,
  closeModelMatches,
  modelFlags,
  parseTeamModelSetting,
  resolveTeammateModel,
  TeamModelSetting,
} from "../../../src/team/model-choice.ts";

const LEADER = { provider: "anthropic", id: "claude-opus-4" };
const TEAM = { provider: "scripted", id: "scripted-1" };
const PIN: AgentModel = { kind: "pin", provider: "openai", id: "gpt-4o" };
const INHERIT: AgentModel = { kind: "inherit" };

const REGISTRY = [
  { provider: "anthropic", id: "claude-sonnet-4" },
  { provider: "anthropic", id: "claude-sonnet-4-5" },
  { provider: "anthropic", id: "claude-opus-4" },
  { provider: "openai", id: "gpt-4o" },
  { provider: "openai", id: "gpt-4o-mini" },
  { provider: "azure-openai", id: "gpt-4o" },
  { provider: "scripted", id: "scripted-1" },
];

describe("resolveTeammateModel (R6, L14)", () => {
  it("a pin wins over everything and carries no thinking level", () => {
    const choice = resolveTeammateModel({ role: PIN, leader: LEADER, leaderThinking: "high", teamDefault: TEAM });
    expect(choice).toEqual({ model: { provider: "openai", id: "gpt-4o" }, thinking: undefined, source: "pin" });
    expect(modelFlags(choice)).toEqual(["--provider", "openai", "--model", "gpt-4o"]);
  });

  it("inherit takes the leader's current model and thinking level, over the team default", () => {
    const choice = resolveTeammateModel({ role: INHERIT, leader: LEADER, leaderThinking: "high", teamDefault: TEAM });
    expect(choice).toEqual({ model: LEADER, thinking: "high", source: "inherit" });
    expect(modelFlags(choice)).toEqual(["--provider", "anthropic", "--model", "claude-opus-4", "--thinking", "high"]);
  });

  it("inherit carries a leader's thinking level of off too", () => {
    const choice = resolveTeammateModel({ role: INHERIT, leader: LEADER, leaderThinking: "off", teamDefault: undefined });
    expect(modelFlags(choice)).toContain("off");
  });

  it("inherit with no leader model falls to the team default, then Pi's default, without thinking", () => {
    expect(resolveTeammateModel({ role: INHERIT, leader: undefined, leaderThinking: "high", teamDefault: TEAM })).toEqual({
      model: TEAM,
      thinking: undefined,
      source: "team-default",
    });
    const none = resolveTeammateModel({ role: INHERIT, leader: undefined, leaderThinking: "high", teamDefault: undefined });
    expect(none).toEqual({ model: undefined, thinking: undefined, source: "pi-default" });
    expect(modelFlags(none)).toEqual([]);
  });

  it("no model field uses the team default, not the leader's model", () => {
    const choice = resolveTeammateModel({ role: undefined, leader: LEADER, leaderThinking: "high", teamDefault: TEAM });
    expect(choice).toEqual({ model: TEAM, thinking: undefined, source: "team-default" });
  });

  it("no model field and no team default means Pi's default: no flags", () => {
    const choice = resolveTeammateModel({ role: undefined, leader: LEADER, leaderThinking: "high", teamDefault: undefined });
    expect(choice.source).toBe("pi-default");
    expect(modelFlags(choice)).toEqual([]);
  });

  it("returns copies, not the caller's objects", () => {
    const choice = resolveTeammateModel({ role: INHERIT, leader: LEADER, leaderThinking: undefined, teamDefault: undefined });
    expect(choice.model).not.toBe(LEADER);
  });
});

describe("closeModelMatches", () => {
  it("puts the same provider first, then ranks by substring and edits", () => {
    expect(closeModelMatches({ provider: "anthropic", id: "claude-sonet-4" }, REGISTRY)).toEqual([
      "anthropic/claude-sonnet-4",
      "anthropic/claude-sonnet-4-5",
    ]);
    expect(closeModelMatches({ provider: "openai", id: "gpt-4" }, REGISTRY)).toEqual([
      "openai/gpt-4o",
      "openai/gpt-4o-mini",
      "azure-openai/gpt-4o",
    ]);
  });

  it("is case-insensitive and finds a misspelt provider", () => {
    expect(closeModelMatches({ provider: "OpenAI", id: "GPT-4o" }, REGISTRY)[0]).toBe("openai/gpt-4o");
    expect(closeModelMatches({ provider: "antropic", id: "claude-opus-4" }, REGISTRY)[0]).toBe("anthropic/claude-opus-4");
  });

  it("honours max, skips duplicates and the exact model", () => {
    const dup = [...REGISTRY, { provider: "openai", id: "gpt-4o-mini" }];
    expect(closeModelMatches({ provider: "openai", id: "gpt-4o" }, dup, 5)).toEqual(["openai/gpt-4o-mini", "azure-openai/gpt-4o"]);
    expect(closeModelMatches({ provider: "openai", id: "gpt-4" }, REGISTRY, 1)).toEqual(["openai/gpt-4o"]);
  });

  it("finds nothing for an unrelated name", () => {
    expect(closeModelMatches({ provider: "acme", id: "zeta-9000" }, REGISTRY)).toEqual([]);
  });
});

describe("checkModel", () => {
  it("accepts an exact registry model", () => {
    expect(checkModel({ provider: "openai", id: "gpt-4o" }, REGISTRY)).toEqual({ ok: true });
  });

  it("refuses an unknown model naming it and its close matches", () => {
    expect(checkModel({ provider: "anthropic", id: "claude-sonet-4" }, REGISTRY)).toEqual({
      ok: false,
      message:
        `Model "anthropic/claude-sonet-4" is not in Pi's model registry. ` +
        "Close matches: anthropic/claude-sonnet-4, anthropic/claude-sonnet-4-5. " +
        "Models come from Pi's model registry: the built-in providers and the models defined in models.json " +
        "in Pi's agent directory (`pi --list-models` shows the ones with credentials). " +
        "Use one of those as provider/id, or add the model to models.json.",
    });
  });

  it("lists a few known models, same provider first, when nothing is close", () => {
    const result = checkModel({ provider: "openai", id: "zeta-9000" }, REGISTRY);
    expect(result.ok ? "" : result.message).toContain(
      "Nothing close; known models include openai/gpt-4o, openai/gpt-4o-mini, anthropic/claude-sonnet-4, " +
        "anthropic/claude-sonnet-4-5, anthropic/claude-opus-4 (and 2 more).",
    );
  });

  it("says so when the registry is empty", () => {
    const result = checkModel(TEAM, []);
    expect(result.ok ? "" : result.message).toContain("The registry has no models at all.");
  });

  it("is case-sensitive like Pi's find, and suggests the right case", () => {
    const result = checkModel({ provider: "OpenAI", id: "gpt-4o" }, REGISTRY);
    expect(result.ok ? "" : result.message).toContain("Close matches: openai/gpt-4o,");
  });
});

describe("parseTeamModelSetting", () => {
  it("default or empty clears", () => {
    expect(parseTeamModelSetting("default")).toEqual({ ok: true, model: undefined });
    expect(parseTeamModelSetting("  Default ")).toEqual({ ok: true, model: undefined });
    expect(parseTeamModelSetting("")).toEqual({ ok: true, model: undefined });
  });

  it("provider/id sets, splitting at the first slash", () => {
    expect(parseTeamModelSetting(" scripted/scripted-1 ")).toEqual({ ok: true, model: TEAM });
    expect(parseTeamModelSetting("openrouter/anthropic/claude-sonnet-4")).toEqual({
      ok: true,
      model: { provider: "openrouter", id: "anthropic/claude-sonnet-4" },
    });
  });

  it("refuses anything else with the accepted forms", () => {
    expect(parseTeamModelSetting("gpt-4o")).toEqual({
      ok: false,
      message:
        'Cannot set the team model to "gpt-4o": expected provider/id (a provider without / or spaces, then a model id without spaces). ' +
        "Accepted forms: /agent-teams model <provider/id> (e.g. anthropic/claude-sonnet-4) or /agent-teams model default.",
    });
    expect(parseTeamModelSetting("a b/c").ok).toBe(false);
    expect(parseTeamModelSetting("/x").ok).toBe(false);
  });

  it("refuses inherit, which is a role value", () => {
    const result = parseTeamModelSetting("inherit");
    expect(result.ok ? "" : result.message).toContain("inherit is a role's model field value");
  });
});

describe("TeamModelSetting", () => {
  it("starts at Pi's default, sets, describes, clears", () => {
    const setting = new TeamModelSetting();
    expect(setting.get()).toBeUndefined();
    expect(setting.describe()).toBe("team model: Pi default");
    setting.set(TEAM);
    expect(setting.get()).toEqual(TEAM);
    expect(setting.describe()).toBe("team model: scripted/scripted-1 (set for this session)");
    setting.set(undefined);
    expect(setting.describe()).toBe("team model: Pi default");
  });

  it("is one per session: instances do not share state, and get() returns a copy", () => {
    const a = new TeamModelSetting(TEAM);
    const b = new TeamModelSetting();
    expect(b.get()).toBeUndefined();
    const got = a.get();
    if (got) got.id = "changed";
    expect(a.get()).toEqual(TEAM);
  });

  it("the command sets only a known model and leaves the setting alone otherwise", () => {
    const setting = new TeamModelSetting();
    expect(applyTeamModelCommand(setting, "scripted/scripted-1", REGISTRY)).toEqual({
      ok: true,
      message: "team model: scripted/scripted-1 (set for this session)",
    });
    const refused = applyTeamModelCommand(setting, "scripted/scripted-2", REGISTRY);
    expect(refused.ok).toBe(false);
    expect(refused.message).toContain('Model "scripted/scripted-2" is not in Pi\'s model registry. Close matches: scripted/scripted-1.');
    expect(applyTeamModelCommand(setting, "nonsense", REGISTRY).ok).toBe(false);
    expect(setting.get()).toEqual(TEAM);
    expect(applyTeamModelCommand(setting, "default", REGISTRY)).toEqual({ ok: true, message: "team model: Pi default" });
  });
});
