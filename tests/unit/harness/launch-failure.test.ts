import { describe, expect, it } from "vitest";
import { TeamError } from "../../../src/errors.ts";
import { launchFailure } from "../../../src/harness/launch-teammate.ts";
import type { LaunchPreflight } from "../../../src/launch/index.ts";
import type { Member } from "../../../src/team/member.ts";

const m = { name: "far", agent: { launcher: "viassh" }, facts: { log: "/rt/logs/far.log" } } as unknown as Member;
const exited = new TeamError("child_exited", "teammate far (pid 7): exited (code 127, crashed).");

describe("launchFailure: a launched pi that never answered", () => {
  it("names the launcher, the settings file and the log, and says it is likely the setup", () => {
    const pre = { launcher: { kind: "custom", name: "viassh", prefix: ["ssh"] }, settings: {}, settingsPath: "/a/settings.json" } as unknown as LaunchPreflight;
    const e = launchFailure(m, pre, exited) as TeamError;
    expect(e.code).toBe("child_exited");
    expect(e.message).toMatch(/^teammate_spawn: far \(launcher "viassh"\) was started, but no pi answered on its pipe: teammate far/);
    expect(e.message).toContain("/a/settings.json");
    expect(e.message).toContain("/rt/logs/far.log");
    expect(e.message).toContain("not a crash");
  });

  it("keeps a local teammate's error as it is", () => {
    const pre = { launcher: { kind: "local" }, settings: {}, settingsPath: undefined } as LaunchPreflight;
    expect(launchFailure(m, pre, exited)).toBe(exited);
    expect(launchFailure(m, undefined, exited)).toBe(exited);
  });
});
