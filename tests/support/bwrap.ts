/** Whether bubblewrap runs here and can make a pid namespace (npm test installs it where it can). */
import { spawnSync } from "node:child_process";

export const BWRAP_WORKS = spawnSync("bwrap", ["--ro-bind", "/", "/", "--unshare-pid", "true"], { stdio: "ignore" }).status === 0;
if (!BWRAP_WORKS) console.warn("bwrap is missing or cannot make namespaces here: the bwrap launcher tests are skipped.");
