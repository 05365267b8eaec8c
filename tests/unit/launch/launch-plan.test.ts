import { describe, expect, it } from "vitest";
import { planLaunch, resolveLauncher, type LaunchPlanInput, type LaunchSettings } from "../../../src/launch/index.ts";

const SETTINGS = "/home/u/.pi/agent/settings.json";
const spawn = {
  args: ["--mode", "rpc", "--no-session", "--no-extensions", "-e", "/pkg", "--tools", "bash,send_message", "--name", "team:boxy", "-a"],
  env: { PI_TEAMS_ROLE: "worker", PI_TEAMS_NAME: "boxy", PI_TEAMS_WORKER_BUNDLE: "/pkg/dist/worker-x.ts" },
};
const leaderEnv = { PATH: "/usr/bin", HOME: "/home/u", SECRET_THING: "no", OPENAI_API_KEY: "sk-1", PI_CODING_AGENT_DIR: "/home/u/.pi/agent", TMPDIR: "/tmp" };

function input(launcher: string | undefined, settings: LaunchSettings = {}, over: Partial<LaunchPlanInput> = {}): LaunchPlanInput {
  return {
    launcher: resolveLauncher(launcher, settings, SETTINGS),
    settings,
    spawn,
    nodePath: "/usr/bin/node",
    piCli: "/pi/cli.js",
    packageDir: "/pkg",
    cwd: "/proj",
    project: "/proj",
    hidden: ["/home/u/.pi/agent/teammate/k", "/home/u/.pi/agent/tasks/k", "/home/u/.pi/agent/worktrees/k"],
    extensions: [],
    leaderEnv,
    ...over,
  };
}

describe("planLaunch", () => {
  it("local: today's child with the leader's environment, transport files", () => {
    const plan = planLaunch(input(undefined));
    expect(plan).toEqual({
      file: "/usr/bin/node",
      args: ["/pi/cli.js", ...spawn.args],
      env: { ...leaderEnv, ...spawn.env },
      extendEnv: true,
      transport: "files",
      removeAfterClose: [],
    });
  });

  it("bwrap: read-only root, team state hidden, the worktree bound back, a private agent dir; env not on the command line", () => {
    const sandbox = { dir: "/tmp/pi-teams-boxy-1", tmp: "/tmp/pi-teams-boxy-1/tmp", agentDir: "/tmp/pi-teams-boxy-1/agent", realAgentDir: "/home/u/.pi/agent", agentEntries: ["auth.json", "models.json", "tasks", "teammate", "worktrees"], protect: ["/proj/.git"], hide: ["/tmp/pi-teams-boxes", "/run/user/1000"] };
    const plan = planLaunch(input("bwrap", { env: ["SECRET_THING"] }, { sandbox, worktree: "/home/u/.pi/agent/worktrees/k/boxy-1", cwd: "/home/u/.pi/agent/worktrees/k/boxy-1/sub" }));
    expect(plan.file).toBe("bwrap");
    expect(plan.args).toEqual([
      "--die-with-parent", "--new-session", "--unshare-pid", "--unshare-ipc", "--cap-drop", "ALL",
      "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc",
      "--tmpfs", "/home/u/.pi/agent/tasks/k", "--tmpfs", "/home/u/.pi/agent/teammate/k", "--tmpfs", "/home/u/.pi/agent/worktrees/k",
      "--bind", "/home/u/.pi/agent/worktrees/k/boxy-1", "/home/u/.pi/agent/worktrees/k/boxy-1",
      "--tmpfs", "/tmp/pi-teams-boxes", "--tmpfs", "/run/user/1000",
      "--bind", "/tmp/pi-teams-boxy-1", "/tmp/pi-teams-boxy-1",
      "--ro-bind", "/home/u/.pi/agent/auth.json", "/tmp/pi-teams-boxy-1/agent/auth.json",
      "--ro-bind", "/home/u/.pi/agent/models.json", "/tmp/pi-teams-boxy-1/agent/models.json",
      "--chdir", "/home/u/.pi/agent/worktrees/k/boxy-1/sub",
      "--", "/usr/bin/node", "/pi/cli.js", ...spawn.args,
    ]);
    expect(plan.extendEnv).toBe(false);
    expect(plan.env).toEqual({
      HOME: "/home/u", PATH: "/usr/bin", OPENAI_API_KEY: "sk-1", SECRET_THING: "no",
      PI_CODING_AGENT_DIR: "/tmp/pi-teams-boxy-1/agent", TMPDIR: "/tmp/pi-teams-boxy-1/tmp",
      ...spawn.env, PI_TEAMS_TRANSPORT: "stream",
    });
    expect(plan.transport).toBe("stream");
    expect(plan.removeAfterClose).toEqual(["/tmp/pi-teams-boxy-1"]);
    expect(plan.args.join(" ")).not.toContain("sk-1");
  });

  it("bwrap: a hidden dir inside the project is covered after the project is bound", () => {
    const sandbox = { dir: "/t/b", tmp: "/t/b/tmp", agentDir: "/t/b/agent", realAgentDir: "/proj/.agent", agentEntries: [], protect: [], hide: [] };
    const plan = planLaunch(input("bwrap", {}, { sandbox, hidden: ["/proj/.agent/teammate/k"] }));
    const bind = plan.args.indexOf("/proj");
    const tmpfs = plan.args.indexOf("/proj/.agent/teammate/k");
    expect(bind).toBeGreaterThan(0);
    expect(tmpfs).toBeGreaterThan(bind);
  });

  it("bwrap in the shared tree: the project's .git and .pi are bound back read-only after the project", () => {
    const sandbox = { dir: "/t/b", tmp: "/t/b/tmp", agentDir: "/t/b/agent", realAgentDir: "/home/u/.pi/agent", agentEntries: [], protect: ["/proj/.git", "/proj/.pi"], hide: [] };
    const args = planLaunch(input("bwrap", {}, { sandbox })).args.join(" ");
    expect(args).toContain("--bind /proj /proj --ro-bind /proj/.git /proj/.git --ro-bind /proj/.pi /proj/.pi");
  });

  it("bwrap: the teammate's own session dir is bound read-write inside the hidden board dir, the file it forks read-only (issue 20)", () => {
    const sandbox = { dir: "/t/b", tmp: "/t/b/tmp", agentDir: "/t/b/agent", realAgentDir: "/home/u/.pi/agent", agentEntries: [], protect: [], hide: [] };
    const dir = "/home/u/.pi/agent/tasks/k/sessions/boxy-2";
    const fork = "/home/u/.pi/agent/tasks/k/sessions/ann-1/t_1.jsonl";
    const notebook = "/home/u/.pi/agent/tasks/k/notebook";
    const args = planLaunch(input("bwrap", {}, { sandbox, session: { dir, fork }, notebook })).args;
    expect(args.join(" ")).toContain(`--bind ${notebook} ${notebook}`);
    const hidden = args.indexOf("/home/u/.pi/agent/tasks/k");
    expect(args[hidden - 1]).toBe("--tmpfs");
    expect(args.join(" ")).toContain(`--bind ${dir} ${dir} --ro-bind ${fork} ${fork}`);
    expect(args.indexOf(dir)).toBeGreaterThan(hidden);
    expect(args.join(" ")).not.toContain("sessions/ann-1 ");
  });

  it("bwrap in a project that holds the agent dir: the team's state is hidden after the agent dir is bound back read-only", () => {
    const sandbox = { dir: "/t/b", tmp: "/t/b/tmp", agentDir: "/t/b/agent", realAgentDir: "/home/u/.pi/agent", agentEntries: [], protect: ["/home/u/.git", "/home/u/.pi", "/home/u/.pi/agent"], hide: [] };
    const board = "/home/u/.pi/agent/tasks/k";
    const args = planLaunch(input("bwrap", {}, { sandbox, project: "/home/u", cwd: "/home/u", hidden: [board, "/home/u/.pi/agent/teammate/k"], session: { dir: `${board}/sessions/boxy-2` } })).args;
    const protect = args.lastIndexOf("/home/u/.pi/agent");
    const hide = args.indexOf(board);
    expect(args[hide - 1]).toBe("--tmpfs");
    expect(hide).toBeGreaterThan(protect);
    expect(args.indexOf(`${board}/sessions/boxy-2`)).toBeGreaterThan(hide);
  });

  it("bwrap without its sandbox dir is a caller bug", () => {
    expect(() => planLaunch(input("bwrap"))).toThrow(/needs the sandbox dir/);
  });

  it("ssh: one quoted remote command, cd then exec env, the local pi paths by default", () => {
    const plan = planLaunch(input("ssh:me@box", { ssh: { options: ["-p", "2222"] } }));
    expect(plan.file).toBe("ssh");
    expect(plan.args.slice(0, 4)).toEqual(["-T", "-p", "2222", "me@box"]);
    expect(plan.args).toHaveLength(5);
    expect(plan.args[4]).toBe(
      "cd /proj && exec env OPENAI_API_KEY\\=sk-1 PI_CODING_AGENT_DIR\\=/home/u/.pi/agent PI_TEAMS_ROLE\\=worker PI_TEAMS_NAME\\=boxy " +
        "PI_TEAMS_WORKER_BUNDLE\\=/pkg/dist/worker-x.ts PI_TEAMS_TRANSPORT\\=stream /usr/bin/node /pi/cli.js --mode rpc --no-session --no-extensions -e /pkg " +
        "--tools bash\\,send_message --name team\\:boxy -a",
    );
    expect(plan).toMatchObject({ env: {}, extendEnv: true, transport: "stream" });
  });

  it("ssh with pi and package overridden: those paths, and no worker bundle", () => {
    const plan = planLaunch(input("ssh:box", { ssh: { pi: ["/usr/bin/node", "/opt/pi/cli.js"], package: "/opt/pi-resident-teams" } }));
    const remote = plan.args.at(-1) ?? "";
    expect(remote).toContain("/usr/bin/node /opt/pi/cli.js --mode rpc");
    expect(remote).toContain("-e /opt/pi-resident-teams --tools");
    expect(remote).not.toContain("PI_TEAMS_WORKER_BUNDLE");
    expect(remote).not.toContain("/pkg");
  });

  it("ssh quotes paths with spaces and quotes for the remote shell", () => {
    const plan = planLaunch(input("ssh:box", {}, { cwd: "/my proj/it's" }));
    expect(plan.args.at(-1)).toMatch(/^cd "\/my proj\/it's" && exec env /);
  });

  it("podman with an image: run -i --rm --init, host network, mounts, --env names only", () => {
    const plan = planLaunch(input("podman", { podman: { image: "localhost/pi" } }, { extensions: ["/ext/gate.ts"] }));
    expect(plan.file).toBe("podman");
    expect(plan.args).toEqual([
      "run", "-i", "--rm", "--init", "--network", "host",
      "-v", "/proj:/proj", "-v", "/pkg:/pkg:ro", "-v", "/ext/gate.ts:/ext/gate.ts:ro",
      "-w", "/proj",
      "--env", "OPENAI_API_KEY", "--env", "PI_TEAMS_ROLE", "--env", "PI_TEAMS_NAME", "--env", "PI_TEAMS_WORKER_BUNDLE", "--env", "PI_TEAMS_TRANSPORT",
      "localhost/pi", "pi", ...spawn.args,
    ]);
    expect(plan.env).toEqual({ OPENAI_API_KEY: "sk-1", ...spawn.env, PI_TEAMS_TRANSPORT: "stream" });
    expect(plan.extendEnv).toBe(true);
    expect(plan.args.join(" ")).not.toContain("sk-1");
  });

  it("podman with a rootfs and docker with an image and its own pi", () => {
    const rootfs = planLaunch(input("podman", { podman: { rootfs: "/srv/rootfs" } }));
    expect(rootfs.args.slice(rootfs.args.indexOf("--rootfs"), rootfs.args.indexOf("--rootfs") + 3)).toEqual(["--rootfs", "/srv/rootfs", "pi"]);
    const docker = planLaunch(input("docker", { docker: { image: "pi:latest", pi: ["node", "/opt/pi/cli.js"], package: "/opt/teams" } }));
    expect(docker.file).toBe("docker");
    expect(docker.args).not.toContain("/pkg:/pkg:ro");
    expect(docker.args.slice(docker.args.indexOf("pi:latest"))).toEqual(["pi:latest", "node", "/opt/pi/cli.js", ...spawn.args.map((a) => (a === "/pkg" ? "/opt/teams" : a))]);
    expect(docker.env).not.toHaveProperty("PI_TEAMS_WORKER_BUNDLE");
  });

  it("a container mount path with ':' is refused", () => {
    expect(() => planLaunch(input("docker", { docker: { image: "pi" } }, { project: "/a:b", cwd: "/a:b" }))).toThrow(/contains ":"/);
  });

  it("custom: the prefix, then env K=V, then the pi command", () => {
    const settings = { launchers: { k8s: { prefix: ["kubectl", "exec", "-i", "pi-box", "--"], pi: ["pi"], package: "/opt/teams" } } };
    const plan = planLaunch(input("k8s", settings));
    expect(plan.file).toBe("kubectl");
    expect(plan.args).toEqual([
      "exec", "-i", "pi-box", "--", "env",
      "OPENAI_API_KEY=sk-1", "PI_CODING_AGENT_DIR=/home/u/.pi/agent", "PI_TEAMS_ROLE=worker", "PI_TEAMS_NAME=boxy", "PI_TEAMS_TRANSPORT=stream",
      "pi", ...spawn.args.map((a) => (a === "/pkg" ? "/opt/teams" : a)),
    ]);
    expect(plan).toMatchObject({ env: {}, extendEnv: true, transport: "stream" });
  });
});

describe("resolveLauncher", () => {
  it("an unknown name lists the built-in and the defined launchers and the settings file", () => {
    expect(() => resolveLauncher("k9s", { launchers: { k8s: { prefix: ["kubectl"] } } }, SETTINGS)).toThrow(
      `launcher "k9s" is not built in and not defined in ${SETTINGS}. Built-in launchers: local, bwrap, podman, docker, ssh:<host>. Defined under piTeams.launchers: k8s.`,
    );
    expect(() => resolveLauncher("k9s", {}, SETTINGS)).toThrow(/Defined under piTeams.launchers: none\./);
  });

  it("docker needs an image; podman exactly one of image and rootfs", () => {
    expect(() => resolveLauncher("docker", {}, SETTINGS)).toThrow(`launcher "docker" needs an image: set piTeams.docker.image in ${SETTINGS}`);
    expect(() => resolveLauncher("podman", {}, SETTINGS)).toThrow(/exactly one of piTeams.podman.image or piTeams.podman.rootfs .*neither is set/);
    expect(() => resolveLauncher("podman", { podman: { image: "i", rootfs: "/r" } }, SETTINGS)).toThrow(/both are set/);
  });
});
