import { describe, expect, it } from "vitest";
import { CAP_SYS_ADMIN, capMask, capsDrop, hasCap, withoutSysAdmin, type HostCaps } from "../../../src/process/index.ts";

const ROOT: HostCaps = { root: true, sysAdmin: true, setpcap: true, setpriv: "/usr/bin/setpriv" };

describe("capsDrop: a local child of a root leader starts without CAP_SYS_ADMIN", () => {
  it("root with setpriv: setpriv drops it from the bounding and inheritable sets, then execs the command", () => {
    expect(capsDrop(ROOT)).toEqual({ prefix: ["/usr/bin/setpriv", "--bounding-set", "-sys_admin,-sys_ptrace,-sys_module,-sys_rawio", "--inh-caps", "-sys_admin,-sys_ptrace,-sys_module,-sys_rawio", "--"] });
  });

  it("nothing to drop: not root, or root without the capability (a container), or unknown caps as non-root", () => {
    expect(capsDrop({ ...ROOT, root: false })).toEqual({ prefix: [] });
    expect(capsDrop({ ...ROOT, sysAdmin: false, setpcap: false })).toEqual({ prefix: [] });
    expect(capsDrop({ root: false, sysAdmin: undefined, setpcap: undefined, setpriv: undefined })).toEqual({ prefix: [] });
  });

  it("root without setpriv (macOS, a minimal image) or without CAP_SETPCAP: no prefix, and a note saying what remains", () => {
    for (const host of [{ ...ROOT, setpriv: undefined }, { ...ROOT, sysAdmin: undefined, setpcap: undefined, setpriv: undefined }]) {
      const drop = capsDrop(host);
      expect(drop.prefix).toEqual([]);
      expect(drop.note).toMatch(/^pi runs as root and util-linux setpriv is not on PATH, so teammates and reviewers keep CAP_SYS_ADMIN, .*TIOCSTI.*install util-linux \(setpriv\)/);
    }
    const noSetpcap = capsDrop({ ...ROOT, setpcap: false });
    expect(noSetpcap.prefix).toEqual([]);
    expect(noSetpcap.note).toMatch(/^pi runs as root without CAP_SETPCAP, which setpriv needs/);
  });
});

describe("withoutSysAdmin: the command a local child is started with", () => {
  const pi = { file: "/usr/bin/node", args: ["/pi/cli.js", "--mode", "rpc"], extendEnv: true };

  it("root with setpriv: setpriv execs the same command, environment rule kept", () => {
    expect(withoutSysAdmin(pi, ROOT)).toEqual({
      file: "/usr/bin/setpriv",
      args: ["--bounding-set", "-sys_admin,-sys_ptrace,-sys_module,-sys_rawio", "--inh-caps", "-sys_admin,-sys_ptrace,-sys_module,-sys_rawio", "--", "/usr/bin/node", "/pi/cli.js", "--mode", "rpc"],
      extendEnv: true,
    });
  });

  it("nothing to drop, or no way to: the command as it is", () => {
    expect(withoutSysAdmin(pi, { ...ROOT, root: false })).toBe(pi);
    expect(withoutSysAdmin(pi, { ...ROOT, setpriv: undefined })).toBe(pi);
  });
});

describe("capMask / hasCap read /proc/<pid>/status", () => {
  const status = "Name:\tnode\nCapInh:\t0000000000000000\nCapEff:\t000001fffeffffff\nCapBnd:\t000001fffedfffff\n";

  it("reads a mask by field and tests one bit", () => {
    expect(capMask(status, "CapEff")).toBe(0x1fffeffffffn);
    expect(hasCap(capMask(status, "CapEff"), CAP_SYS_ADMIN)).toBe(true);
    expect(hasCap(capMask(status, "CapBnd"), CAP_SYS_ADMIN)).toBe(false);
    expect(hasCap(capMask(status, "CapInh"), 0)).toBe(false);
  });

  it("a missing field is undefined, not zero", () => {
    expect(capMask(status, "CapAmb")).toBeUndefined();
    expect(hasCap(undefined, CAP_SYS_ADMIN)).toBeUndefined();
  });
});
