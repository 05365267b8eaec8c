import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { preflightLaunch, removeLaunchDirs } from "../../../src/launch/index.ts";

let agentDir: string;
beforeEach(async () => {
  agentDir = await mkdtemp(join(tmpdir(), "launch-preflight-"));
});
afterEach(async () => {
  await rm(agentDir, { recursive: true, force: true });
});

const base = (launcher: string | undefined, env: Record<string, string | undefined> = process.env) => ({ launcher, name: "boxy", agentDir, env, hidden: [] as string[] });
const hasBwrap = spawnSync("which", ["bwrap"]).status === 0;
const hasSsh = spawnSync("which", ["ssh"]).status === 0;

describe("preflightLaunch", () => {
  it("local reads no settings (even a broken file) and needs nothing", async () => {
    await writeFile(join(agentDir, "settings.json"), "{ broken");
    expect(await preflightLaunch(base(undefined))).toEqual({ launcher: { kind: "local" }, settings: {}, settingsPath: undefined });
    expect(await preflightLaunch(base("local"))).toMatchObject({ launcher: { kind: "local" } });
  });

  it("an unknown launcher names the built-in ones, the defined ones and the settings file", async () => {
    await writeFile(join(agentDir, "settings.json"), JSON.stringify({ piTeams: { launchers: { k8s: { prefix: ["kubectl"] } } } }));
    await expect(preflightLaunch(base("nope"))).rejects.toThrow(
      `launcher "nope" is not built in and not defined in ${join(agentDir, "settings.json")}. Built-in launchers: local, bwrap, podman, docker, ssh:<host>. Defined under piTeams.launchers: k8s.`,
    );
  });

  it("a missing binary is named, with how to install it", async () => {
    await expect(preflightLaunch(base("bwrap", { PATH: "/nonexistent" }))).rejects.toThrow(
      'launcher "bwrap" needs "bwrap", which is not on PATH (/nonexistent); install bubblewrap (Debian/Ubuntu: apt-get install bubblewrap',
    );
    await writeFile(join(agentDir, "settings.json"), JSON.stringify({ piTeams: { launchers: { k8s: { prefix: ["kubectl-not-here", "exec"] } } } }));
    await expect(preflightLaunch(base("k8s"))).rejects.toThrow(/launcher "k8s" needs "kubectl-not-here", which is not on PATH .*; install it, or fix piTeams.launchers.k8s.prefix in /);
  });

  it.skipIf(!hasSsh)("an unreachable ssh host fails with ssh's own words", async () => {
    await writeFile(join(agentDir, "settings.json"), JSON.stringify({ piTeams: { ssh: { options: ["-p", "1"] } } }));
    await expect(preflightLaunch(base("ssh:127.0.0.1"))).rejects.toThrow(/launcher "ssh:127.0.0.1" cannot reach 127.0.0.1: `ssh -T -o BatchMode=yes -o ConnectTimeout=5 -p 1 127.0.0.1 true` failed \(exit 255\): .*refused/);
  }, 30_000);

  it.skipIf(!hasBwrap)("bwrap: creates the hidden dirs and a private dir listing the agent dir", async () => {
    await writeFile(join(agentDir, "models.json"), "{}");
    const hidden = [join(agentDir, "teammate", "k"), join(agentDir, "worktrees", "k")];
    const pre = await preflightLaunch({ ...base("bwrap"), hidden });
    try {
      for (const dir of hidden) expect((await stat(dir)).mode & 0o777).toBe(0o700);
      expect(pre.launcher).toEqual({ kind: "bwrap" });
      const box = pre.sandbox!;
      expect(box.dir).toMatch(/pi-teams-boxes\/\d+-boxy-/);
      expect(existsSync(box.tmp) && existsSync(box.agentDir)).toBe(true);
      expect(box.realAgentDir).toBe(agentDir);
      expect(box.agentEntries).toEqual(["models.json", "teammate", "worktrees"]);
    } finally {
      expect(await removeLaunchDirs([pre.sandbox!.dir])).toBeUndefined();
    }
    expect(existsSync(pre.sandbox!.dir)).toBe(false);
  });

  it("bad settings stop a non-local launch", async () => {
    await mkdir(agentDir, { recursive: true });
    await writeFile(join(agentDir, "settings.json"), JSON.stringify({ piTeams: { docker: { image: 5 } } }));
    await expect(preflightLaunch(base("docker"))).rejects.toThrow(/piTeams.docker.image has value 5, which is not accepted/);
  });
});
