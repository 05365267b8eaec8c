import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkToolGrant, PI_BUILTIN_TOOLS, WORKER_TOOLS } from "../../../src/agents/index.ts";
import { editDistance, nearMisses } from "../../../src/agents/near-miss.ts";
import { resolvePiCli } from "../../../src/process/index.ts";
import { trustFlag } from "../../../src/process/trust.ts";

const TEAM = [...WORKER_TOOLS];

describe("checkToolGrant (L5)", () => {
  it("grants the role tools in order, then the team tools", () => {
    expect(checkToolGrant(["bash", "read"], PI_BUILTIN_TOOLS)).toEqual({ ok: true, tools: ["bash", "read", ...TEAM] });
  });

  it("gives a role without a tools field only the team tools, and so does tools: []", () => {
    expect(checkToolGrant(undefined, PI_BUILTIN_TOOLS)).toEqual({ ok: true, tools: TEAM });
    expect(checkToolGrant([], PI_BUILTIN_TOOLS)).toEqual({ ok: true, tools: TEAM });
  });

  it("keeps a team tool the role lists once, in the role's position", () => {
    const result = checkToolGrant(["task_list", "read", "read"], PI_BUILTIN_TOOLS);
    expect(result).toEqual({ ok: true, tools: ["task_list", "read", "send_message", "task_claim", "task_submit"] });
  });

  it("refuses an MCP tool, naming it, the reason and the known tools", () => {
    const result = checkToolGrant(["read", "mcp_foo"], PI_BUILTIN_TOOLS);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.unknown).toEqual(["mcp_foo"]);
    expect(result.message).toBe(
      'Unknown tool "mcp_foo" in the role\'s tools field. ' +
        "Teammates run with only Pi's built-in tools plus the team tools: children start with --no-extensions, " +
        "so extension and MCP tools are not available to them unless the role loads the extension that registers the tool (the extensions field). " +
        "Known tools: read, bash, powershell, edit, write, grep, find, ls. " +
        "Team tools (always granted): send_message, task_list, task_claim, task_submit. " +
        "Fix or remove the tool in the role's definition file and spawn again.",
    );
  });

  it("suggests near misses: a wrong case, a transposition, a misspelt team tool", () => {
    const result = checkToolGrant(["Read", "gerp", "send_mesage", "mcp_foo"], PI_BUILTIN_TOOLS);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.unknown).toEqual(["Read", "gerp", "send_mesage", "mcp_foo"]);
    expect(result.message).toContain(
      'Unknown tools "Read" (did you mean "read"?), "gerp" (did you mean "grep"?), ' +
        '"send_mesage" (did you mean "send_message"?), "mcp_foo" in the role\'s tools field.',
    );
  });

  it("lists each unknown tool once", () => {
    const result = checkToolGrant(["mcp_foo", "mcp_foo"], PI_BUILTIN_TOOLS);
    expect(result.ok ? [] : result.unknown).toEqual(["mcp_foo"]);
  });

  it("checks against the known list it is given", () => {
    expect(checkToolGrant(["bash"], ["read"]).ok).toBe(false);
  });
});

describe("near misses", () => {
  it("counts a transposition as one edit", () => {
    expect(editDistance("gerp", "grep")).toBe(1);
    expect(editDistance("kitten", "sitting")).toBe(3);
    expect(editDistance("", "ls")).toBe(2);
  });

  it("ranks equal-ignoring-case, then containing, then a few edits; never everything", () => {
    expect(nearMisses("BASH", ["bash", "bash_x", "bsh"])).toEqual(["bash", "bash_x", "bsh"]);
    expect(nearMisses("x", ["read", "ls"])).toEqual([]);
  });
});

describe("pi --help (the Pi CLI contract these rules copy)", () => {
  let help = "";
  let agentDir = "";

  beforeAll(() => {
    agentDir = mkdtempSync(join(tmpdir(), "prt-help-"));
    const env: Record<string, string> = { PATH: process.env.PATH ?? "", HOME: agentDir };
    Object.assign(env, { PI_CODING_AGENT_DIR: agentDir, PI_OFFLINE: "1", PI_SKIP_VERSION_CHECK: "1", PI_TELEMETRY: "0" });
    help = execFileSync(process.execPath, [resolvePiCli(), "--help"], { cwd: agentDir, env, encoding: "utf8", stdio: "pipe" });
  }, 60_000);

  afterAll(() => {
    rmSync(agentDir, { recursive: true, force: true });
  });

  it('lists exactly PI_BUILTIN_TOOLS under "Built-in Tool Names" (a Pi upgrade that adds one fails here)', () => {
    const section = help.split(/^Built-in Tool Names:\n/m)[1];
    expect(section, 'no "Built-in Tool Names:" section in pi --help').toBeDefined();
    const names: string[] = [];
    for (const line of (section ?? "").split("\n")) {
      const match = /^\s+(\S+)\s+- /.exec(line);
      if (!match) break;
      names.push(match[1] ?? "");
    }
    expect(names).toEqual([...PI_BUILTIN_TOOLS]);
  });

  it("has the -a / -na trust flags trustFlag passes", () => {
    expect(help).toMatch(new RegExp(`--approve, ${trustFlag(true)}\\s`));
    expect(help).toMatch(new RegExp(`--no-approve, ${trustFlag(false)}\\s`));
  });
});
