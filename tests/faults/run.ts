/**
 * `npm run test:faults`: runs the fault suite (tests/faults/*.test.ts, its own vitest config),
 * then prints the figures every case wrote to .tmp/faults/ and the suite's run time. With
 * `--write` (or FAULTS_WRITE=1) it also replaces the figures section of docs/reliability.md,
 * between `<!-- figures:start -->` and `<!-- figures:end -->`. Other arguments go to vitest
 * (e.g. a file filter). The exit code is vitest's.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
// Type only (erased when node runs this file): figures.ts itself loads the test support.
import type { CaseFigures as Figures } from "./support/figures.ts";

const root = dirname(dirname(dirname(fileURLToPath(import.meta.url))));
const figuresDir = join(root, ".tmp", "faults");
const doc = join(root, "docs", "reliability.md");
const START = "<!-- figures:start -->";
const END = "<!-- figures:end -->";

/** Reads every case's figures, in case order. */
function readFigures(): Figures[] {
  if (!existsSync(figuresDir)) return [];
  return readdirSync(figuresDir)
    .filter((f) => f.endsWith(".json"))
    .map((f) => JSON.parse(readFileSync(join(figuresDir, f), "utf8")) as Figures)
    .sort((a, b) => a.order - b.order);
}

/** A Markdown table from rows (header first). */
function table(rows: string[][]): string[] {
  const [header, ...body] = rows;
  if (!header) return [];
  return [`| ${header.join(" | ")} |`, `|${header.map(() => "---").join("|")}|`, ...body.map((r) => `| ${r.join(" | ")} |`)];
}

/** The figures section of docs/reliability.md. */
function section(all: Figures[], seconds: number, ok: boolean): string {
  const out = [
    START,
    `Last run: ${new Date().toISOString().slice(0, 10)}, \`npm run test:faults\` ${ok ? "passed" : "FAILED"} in ${seconds} s on this 2-core machine.`,
    "",
  ];
  for (const f of all) {
    out.push(`### ${f.title}`, "", ...f.lines.map((l) => `- ${l}`));
    out.push(`- run time ${f.seconds} s${f.seed !== undefined ? `, seed ${f.seed} (replay with \`FAULTS_SEED=${f.seed}\`)` : ""}`, "");
    if (f.table) out.push(...table(f.table), "");
  }
  out.push(END);
  return out.join("\n");
}

const args = process.argv.slice(2);
const write = args.includes("--write") || process.env.FAULTS_WRITE === "1";
const vitestArgs = args.filter((a) => a !== "--write");
rmSync(figuresDir, { recursive: true, force: true });
const t0 = Date.now();
const vitest = join(root, "node_modules", ".bin", "vitest");
const run = spawnSync(vitest, ["run", "-c", join(root, "tests", "faults", "vitest.config.ts"), ...vitestArgs], { stdio: "inherit", cwd: root });
const seconds = Math.round((Date.now() - t0) / 1000);
const ok = run.status === 0;
const all = readFigures();

console.log("\n=== fault suite figures ===");
for (const f of all) {
  console.log(`\n${f.title} (${f.seconds} s${f.seed !== undefined ? `, seed ${f.seed}` : ""})`);
  for (const l of f.lines) console.log(`  ${l}`);
}
console.log(`\nfault suite ${ok ? "passed" : "FAILED"} in ${seconds} s`);

if (write) {
  const text = readFileSync(doc, "utf8");
  const from = text.indexOf(START);
  const to = text.indexOf(END);
  if (from < 0 || to < from) throw new Error(`${doc} has no ${START} ... ${END} section`);
  writeFileSync(doc, `${text.slice(0, from)}${section(all, seconds, ok)}${text.slice(to + END.length)}`);
  console.log(`figures written to ${doc}`);
}
process.exit(run.status ?? 1);
