import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { checkLaunchSettings, filterLaunchEnv, isPassedEnvName, readLaunchSettings } from "../../../src/launch/index.ts";

const P = "/h/.pi/agent/settings.json";

describe("checkLaunchSettings", () => {
  it("accepts the documented example", () => {
    const value = {
      env: ["EXTRA_VAR"],
      ssh: { options: ["-p", "2222", "-i", "/k/id", "-o", "UserKnownHostsFile=/k/known"], pi: ["/usr/bin/node", "/opt/pi/cli.js"], package: "/opt/pi-resident-teams" },
      podman: { image: "localhost/pi", rootfs: "/srv/rootfs", pi: ["pi"] },
      docker: { image: "pi:latest", pi: ["pi"] },
      launchers: { k8s: { prefix: ["kubectl", "exec", "-i", "pi-box", "--"], pi: ["pi"], package: "/opt/pi-resident-teams" } },
    };
    expect(checkLaunchSettings(value, P)).toEqual(value);
    expect(checkLaunchSettings(undefined, P)).toEqual({});
  });

  it("names the file, the field path, the value and what is accepted", () => {
    expect(() => checkLaunchSettings({ ssh: { options: ["-p", 2222] } }, P)).toThrow(
      `${P}: piTeams.ssh.options[1] has value 2222, which is not accepted; accepted: a list of strings passed to ssh before the host, for example ["-p", "2222", "-i", "/k/id"].`,
    );
    expect(() => checkLaunchSettings({ launchers: { k8s: { prefix: [] } } }, P)).toThrow(/piTeams.launchers\["k8s"\].prefix has value \[\], which is not accepted; accepted: a non-empty list/);
    expect(() => checkLaunchSettings({ launchers: { k8s: {} } }, P)).toThrow(/piTeams.launchers\["k8s"\] has value \{\}, which lacks prefix; accepted: an object \{"prefix"/);
    expect(() => checkLaunchSettings({ ssh: { opts: [] } }, P)).toThrow(/piTeams.ssh has value \{"opts":\[\]\}, which has unknown key opts; accepted: an object with any of the keys options, pi, package/);
    expect(() => checkLaunchSettings({ env: ["OK", "not ok"] }, P)).toThrow(/piTeams.env\[1\] has value "not ok"/);
    expect(() => checkLaunchSettings("bwrap", P)).toThrow(/piTeams has value "bwrap", which is not accepted; accepted: an object with any of the keys env, ssh, podman, docker, launchers/);
  });

  it("refuses a launcher named like a built-in one", () => {
    expect(() => checkLaunchSettings({ launchers: { bwrap: { prefix: ["x"] } } }, P)).toThrow(/piTeams.launchers\["bwrap"\] .* has a name that cannot be used/);
  });
});

describe("readLaunchSettings", () => {
  let dir: string | undefined;
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
    dir = undefined;
  });

  it("reads piTeams from <agentDir>/settings.json; a missing file or key is {}", async () => {
    dir = await mkdtemp(join(tmpdir(), "launch-settings-"));
    expect(await readLaunchSettings(dir)).toEqual({ path: join(dir, "settings.json"), settings: {} });
    await writeFile(join(dir, "settings.json"), JSON.stringify({ defaultModel: "x" }));
    expect((await readLaunchSettings(dir)).settings).toEqual({});
    await writeFile(join(dir, "settings.json"), JSON.stringify({ piTeams: { env: ["A"] } }));
    expect((await readLaunchSettings(dir)).settings).toEqual({ env: ["A"] });
  });

  it("a file that is not JSON is an error naming it", async () => {
    dir = await mkdtemp(join(tmpdir(), "launch-settings-"));
    await writeFile(join(dir, "settings.json"), "{ nope");
    await expect(readLaunchSettings(dir)).rejects.toThrow(`the Pi settings file ${join(dir, "settings.json")} is not valid JSON`);
  });
});

describe("the launch environment", () => {
  it("passes the basics, PI_*, LC_*, provider credentials and piTeams.env; drops the rest", () => {
    const env = {
      PATH: "/bin", HOME: "/h", USER: "u", LANG: "C.UTF-8", LC_ALL: "C", TERM: "xterm", TZ: "UTC", TMPDIR: "/tmp",
      PI_CODING_AGENT_DIR: "/a", PI_OFFLINE: "1", ANTHROPIC_API_KEY: "a", ANTHROPIC_OAUTH_TOKEN: "o", GEMINI_API_KEY: "g",
      AWS_PROFILE: "p", AWS_REGION: "r", GOOGLE_CLOUD_PROJECT: "gc", GCLOUD_PROJECT: "gp", AZURE_OPENAI_BASE_URL: "az",
      HF_TOKEN: "hf", COPILOT_GITHUB_TOKEN: "cp", HTTPS_PROXY: "px",
      GITHUB_TOKEN: "no", SSH_AUTH_SOCK: "/s", DISPLAY: ":0", EDITOR: "vi", EXTRA_VAR: "yes", UNSET: undefined,
    };
    const out = filterLaunchEnv(env, ["EXTRA_VAR", "UNSET"]);
    expect(Object.keys(out)).toEqual([
      "ANTHROPIC_API_KEY", "ANTHROPIC_OAUTH_TOKEN", "AWS_PROFILE", "AWS_REGION", "AZURE_OPENAI_BASE_URL", "COPILOT_GITHUB_TOKEN", "EXTRA_VAR",
      "GCLOUD_PROJECT", "GEMINI_API_KEY", "GOOGLE_CLOUD_PROJECT", "HF_TOKEN", "HOME", "HTTPS_PROXY", "LANG", "LC_ALL", "PATH",
      "PI_CODING_AGENT_DIR", "PI_OFFLINE", "TERM", "TMPDIR", "TZ", "USER",
    ]);
    expect(isPassedEnvName("GITHUB_TOKEN")).toBe(false);
    expect(isPassedEnvName("XIAOMI_TOKEN_PLAN_SGP_API_KEY")).toBe(true);
  });
});
