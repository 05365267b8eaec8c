import { describe, expect, it } from "vitest";
import { parseAgentFile, parseInlineDefinition } from "../../../src/agents/index.ts";

const SOURCE = "/proj/.pi/agents/boxed.md";
const parse = (launcher: string) => parseAgentFile({ text: `---\ndescription: d\nlauncher: ${launcher}\n---\nbody`, source: SOURCE, name: "boxed", scope: "project" });

describe("the launcher field (issue 10)", () => {
  it.each(["local", "bwrap", "podman", "docker", "ssh:build-box", "ssh:me@10.0.0.5", "k8s", "open-shell.v2"])("accepts %s", (value) => {
    const result = parse(value);
    expect(result.ok && result.agent.launcher).toBe(value);
  });

  it("is absent when the field is", () => {
    const result = parseAgentFile({ text: "---\ndescription: d\n---\nbody", source: SOURCE, name: "boxed", scope: "project" });
    expect(result.ok && result.agent.launcher).toBeUndefined();
  });

  it.each(["ssh", "'ssh:'", "ssh:-oProxyCommand=x", "'k 8s'", "'9lives'", "[bwrap]", "true"])("refuses %s, naming the file, the field and what is accepted", (value) => {
    const result = parse(value);
    expect(result.ok).toBe(false);
    const message = result.diagnostics.find((d) => d.severity === "error")?.message ?? "";
    expect(message).toContain(`${SOURCE}: field "launcher" has value`);
    expect(message).toContain('accepted: "local" (the default), "bwrap", "podman", "docker", "ssh:<host>"');
  });

  it("is not an inline definition field (a role file or the user's settings pick launchers)", () => {
    const result = parseInlineDefinition("boxed", { prompt: "p", launcher: "bwrap" });
    expect(result.ok).toBe(false);
  });
});
