import { readdir, writeFile, mkdir } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { boardParts, createBoard } from "../../../src/board/index.ts";
import { BoardSnapshots } from "../../../src/boardhost/board-snapshots.ts";
import { boardLayoutAt } from "../../../src/store/index.ts";
import { useTempDirs } from "../store/tmp.ts";

const tempDir = useTempDirs();

describe("BoardSnapshots.read", () => {
  it("removes the temp files of board.json writes a killed leader left, and keeps everything else", async () => {
    const layout = boardLayoutAt(await tempDir());
    await mkdir(layout.root, { recursive: true });
    for (const f of ["board.json.123456", "board.json.9", "board.corrupt-1.json", "board.json.keep"]) await writeFile(`${layout.root}/${f}`, "x");
    const notes: string[] = [];
    const snapshots = new BoardSnapshots({ layout, now: () => 1, note: (t) => notes.push(t), serialize: () => boardParts(createBoard()) });
    expect(await snapshots.read()).toEqual({ kind: "missing" });
    expect((await readdir(layout.root)).sort()).toEqual(["board.corrupt-1.json", "board.json.keep"]);
    expect(notes).toEqual(["removed 2 temp file(s) of board.json writes a killed leader left half done"]);
  });
});
