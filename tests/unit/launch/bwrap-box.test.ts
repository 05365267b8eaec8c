import { mkdir, mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { prepareBox } from "../../../src/launch/bwrap-box.ts";

const dirs: string[] = [];
afterEach(async () => {
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});

describe("a bwrap teammate's box", () => {
  it("lives under the one boxes parent, which it hides with the user's socket dirs, and protects the project's .git and .pi", async () => {
    const root = await mkdtemp(join(tmpdir(), "box-test-"));
    dirs.push(root);
    const project = join(root, "proj");
    for (const d of [join(project, ".git"), join(project, ".pi"), join(root, "agent"), join(root, "sockets")]) await mkdir(d, { recursive: true });
    const box = await prepareBox({ name: "boxy", realAgentDir: join(root, "agent"), hidden: [join(root, "state")], project, tmp: root, socketDirs: [join(root, "sockets"), join(root, "no-such")] });
    const parent = join(root, "pi-teams-boxes");
    expect(box.dir.startsWith(join(parent, `${process.pid}-boxy-`))).toBe(true);
    expect(box.protect).toEqual([join(project, ".git"), join(project, ".pi")]);
    expect(box.hide).toEqual([parent, join(root, "sockets")]);
    expect(await readdir(join(root, "state"))).toEqual([]); // made, so bwrap can cover it
  });

  it("removes the boxes of leaders that no longer run, and keeps those of living ones", async () => {
    const root = await mkdtemp(join(tmpdir(), "box-test-"));
    dirs.push(root);
    const parent = join(root, "pi-teams-boxes");
    const dead = join(parent, "2147483646-old-abc"); // no such pid
    const living = join(parent, `${process.pid}-mine-abc`);
    for (const d of [dead, living, join(root, "agent")]) await mkdir(d, { recursive: true });
    const box = await prepareBox({ name: "new", realAgentDir: join(root, "agent"), hidden: [], tmp: root, socketDirs: [] });
    expect((await readdir(parent)).sort()).toEqual([living, box.dir].map((d) => d.slice(parent.length + 1)).sort());
  });
});
