// Some end-to-end tests need programs from the system: tmux (the real-terminal tests drive Pi's
// TUI in it), bubblewrap and OpenSSH's server (the bwrap and ssh launcher tests), Chromium (the
// run export's check). Where one is missing, this installs it with the system's package manager
// (as root, or through password-less sudo); where that cannot be done it prints why, and those
// tests skip with the same reason.
import { spawnSync } from "node:child_process";

const has = (cmd, args) => spawnSync(cmd, args, { stdio: "ignore" }).status === 0;

/** The tools, how to see that each runs, and its package per manager (apt-get, dnf, apk, brew). */
export const TOOLS = [
  { name: "tmux", probe: ["tmux", ["-V"]], packages: { "apt-get": "tmux", dnf: "tmux", apk: "tmux", brew: "tmux" } },
  { name: "bubblewrap", probe: ["bwrap", ["--version"]], packages: { "apt-get": "bubblewrap", dnf: "bubblewrap", apk: "bubblewrap" } },
  { name: "sshd", probe: ["/usr/sbin/sshd", ["-V"]], packages: { "apt-get": "openssh-server", dnf: "openssh-server", apk: "openssh-server" } },
  // The run export's check opens the page in headless Chromium (tests/e2e/run-export.test.ts).
  { name: "chromium", probe: ["chromium", ["--version"]], packages: { "apt-get": "chromium", dnf: "chromium", apk: "chromium" } },
];

/** Installs `tool` when it is missing. Returns undefined when it runs, else why it does not. */
export function ensureTool(tool) {
  const runs = () => has(tool.probe[0], tool.probe[1]);
  if (runs()) return undefined;
  const root = typeof process.getuid === "function" && process.getuid() === 0;
  const managers = [["apt-get", ["install", "-y", "-q"], ["update", "-q"]], ["dnf", ["install", "-y"]], ["apk", ["add"]], ["brew", ["install"]]];
  for (const [pm, args, before] of managers) {
    const pkg = tool.packages[pm];
    if (!pkg || !has(pm, ["--version"])) continue;
    const sudo = pm === "brew" || root ? [] : ["sudo", "-n"];
    if (sudo.length > 0 && !has("sudo", ["-n", "true"])) return `${tool.name} is missing and ${pm} needs root (no password-less sudo)`;
    console.log(`${tool.name} is missing: installing ${pkg} with ${pm}`);
    const exec = (a) => spawnSync(sudo[0] ?? pm, sudo.length > 0 ? [...sudo.slice(1), pm, ...a] : a, { stdio: "inherit" });
    if (before) exec(before);
    exec([...args, pkg]);
    return runs() ? undefined : `${tool.name} is missing and "${pm} ${[...args, pkg].join(" ")}" did not install it`;
  }
  return `${tool.name} is missing and no package manager here (apt-get, dnf, apk, brew) has it`;
}
