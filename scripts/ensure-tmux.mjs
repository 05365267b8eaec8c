// The real-terminal tests drive Pi's TUI in tmux. Where tmux is missing, this installs it with
// the system's package manager (as root, or through password-less sudo); where that cannot be
// done it prints why, and those tests skip with the same reason.
import { spawnSync } from "node:child_process";

const has = (cmd, args = ["--version"]) => spawnSync(cmd, args, { stdio: "ignore" }).status === 0;

/** Installs tmux when it is missing. Returns undefined when tmux runs, else why it does not. */
export function ensureTmux() {
  if (has("tmux", ["-V"])) return undefined;
  const managers = [
    ["apt-get", ["install", "-y", "-q", "tmux"], ["apt-get", ["update", "-q"]]],
    ["dnf", ["install", "-y", "tmux"]],
    ["apk", ["add", "tmux"]],
    ["brew", ["install", "tmux"]],
  ];
  const root = typeof process.getuid === "function" && process.getuid() === 0;
  for (const [pm, args, before] of managers) {
    if (!has(pm)) continue;
    const sudo = pm === "brew" || root ? [] : ["sudo", "-n"];
    if (sudo.length > 0 && !has("sudo", ["-n", "true"])) return `tmux is missing and ${pm} needs root (no password-less sudo)`;
    console.log(`tmux is missing: installing it with ${pm}`);
    const exec = (cmd, a) => spawnSync(sudo[0] ?? cmd, sudo.length > 0 ? [...sudo.slice(1), cmd, ...a] : a, { stdio: "inherit" });
    if (before) exec(before[0], before[1]);
    exec(pm, args);
    return has("tmux", ["-V"]) ? undefined : `tmux is missing and "${pm} ${args.join(" ")}" did not install it`;
  }
  return "tmux is missing and no known package manager (apt-get, dnf, apk, brew) is available";
}
