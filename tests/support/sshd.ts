/**
 * A throwaway OpenSSH server on 127.0.0.1 for the ssh launcher tests: a free port, fresh host and
 * user keys in a temp dir, the user key authorised for the current user, stopped by `stop()`.
 * `HAS_SSHD` is false where /usr/sbin/sshd or ssh-keygen is missing (npm test installs them).
 */
import { execa, type ResultPromise } from "execa";
import { spawnSync } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile, copyFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

const SSHD = "/usr/sbin/sshd";

/** sshd and ssh-keygen both run here. */
export const HAS_SSHD = spawnSync(SSHD, ["-V"]).status === 0 && spawnSync("ssh-keygen", ["-?"]).error === undefined;

/** A running test sshd. */
export interface TestSshd {
  port: number;
  /** ssh client options that reach it with the generated key, without touching ~/.ssh. */
  options: string[];
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Starts sshd in the foreground (-D) and resolves once it accepts a login. @throws when it does not within 10 s. */
export async function startSshd(): Promise<TestSshd> {
  const dir = await mkdtemp(join(tmpdir(), "pi-teams-sshd-"));
  for (const k of ["host", "user"]) await execa("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", join(dir, k)]);
  await copyFile(join(dir, "user.pub"), join(dir, "authorized_keys"));
  await mkdir("/run/sshd", { recursive: true }).catch(() => undefined); // privilege separation dir
  const port = await freePort();
  const config = [
    `Port ${port}`, "ListenAddress 127.0.0.1", `HostKey ${join(dir, "host")}`, `AuthorizedKeysFile ${join(dir, "authorized_keys")}`,
    `PidFile ${join(dir, "sshd.pid")}`, "StrictModes no", "UsePAM no", "PermitRootLogin prohibit-password", "PasswordAuthentication no", "KbdInteractiveAuthentication no",
  ];
  await writeFile(join(dir, "sshd_config"), `${config.join("\n")}\n`);
  const proc: ResultPromise = execa(SSHD, ["-D", "-e", "-f", join(dir, "sshd_config")], { reject: false, stdio: ["ignore", "ignore", "pipe"], cleanup: true });
  const options = ["-p", String(port), "-i", join(dir, "user"), "-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null", "-o", "LogLevel=ERROR", "-o", "IdentitiesOnly=yes"];
  const stop = async () => {
    proc.kill("SIGTERM");
    await proc;
    await rm(dir, { recursive: true, force: true });
  };
  // sshd -e says "Server listening on 127.0.0.1 port N." on stderr once it accepts connections.
  let said = "";
  const listening = await new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(false), 10_000);
    proc.stderr?.on("data", (chunk: Buffer) => {
      said += chunk.toString();
      if (said.includes("Server listening")) {
        clearTimeout(timer);
        resolve(true);
      }
    });
    void proc.then(() => resolve(false));
  });
  if (listening) return { port, options, stop };
  await stop();
  throw new Error(`the test sshd on port ${port} did not start within 10 s: ${said.slice(-500)}`);
}
