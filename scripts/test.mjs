// `npm test`: typecheck, unit tests, the executed Gherkin features, then the end-to-end suite,
// closing with one plain line "N passed, N failed" that totals all of them.
// The JSON reports the runners write stay in .tmp/test-reports/ (gitignored), overwritten by the
// next run, so the "JSON report written to ..." lines vitest prints name files that exist.
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { ensureTool, TOOLS } from "./ensure-tools.mjs";

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const out = join(root, ".tmp", "test-reports");
mkdirSync(out, { recursive: true });
const bin = (name) => join(root, "node_modules", ".bin", name);
let passed = 0;
let failed = 0;

function run(label, cmd, args) {
  console.log(`\n=== ${label} ===`);
  const r = spawnSync(cmd, args, { stdio: "inherit", cwd: root });
  return r.status === 0;
}

function vitest(project) {
  const file = join(out, `${project}.json`);
  rmSync(file, { force: true }); // a stale report must not count when the runner dies early
  const ok = run(`vitest ${project}`, bin("vitest"), [
    "run", "--project", project, "--reporter=default", "--reporter=json", `--outputFile.json=${file}`,
  ]);
  try {
    const r = JSON.parse(readFileSync(file, "utf8"));
    passed += r.numPassedTests;
    failed += r.numFailedTests + (ok || r.numFailedTests > 0 ? 0 : 1);
  } catch {
    failed += 1; // the runner died before writing its report
  }
}

function cucumber() {
  const file = join(out, "cucumber.json");
  rmSync(file, { force: true });
  const ok = run("cucumber features", bin("cucumber-js"), ["--format", `json:${file}`]);
  try {
    const features = JSON.parse(readFileSync(file, "utf8"));
    let f = 0;
    for (const feature of features) {
      for (const scenario of feature.elements ?? []) {
        const bad = scenario.steps.some((s) => s.result.status !== "passed");
        if (bad) f++; else passed++;
      }
    }
    failed += f + (ok || f > 0 ? 0 : 1);
  } catch {
    failed += 1;
  }
}

if (run("typecheck", bin("tsc"), ["--noEmit", "-p", "tsconfig.json"])) passed++; else failed++;
vitest("unit");
cucumber();
for (const tool of TOOLS) {
  const missing = ensureTool(tool);
  if (missing) console.log(`\nThe tests that need ${tool.name} will be skipped: ${missing}.`);
}
vitest("e2e");
console.log(`\nJSON reports: ${relative(process.cwd(), out) || "."}/`);
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
