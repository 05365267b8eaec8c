// `npm test`: typecheck, unit tests, the executed Gherkin features, then the end-to-end suite,
// closing with one plain line "N passed, N failed" that totals all of them.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const out = mkdtempSync(join(tmpdir(), "pi-teams-test-"));
const bin = (name) => join("node_modules", ".bin", name);
let passed = 0;
let failed = 0;

function run(label, cmd, args) {
  console.log(`\n=== ${label} ===`);
  const r = spawnSync(cmd, args, { stdio: "inherit" });
  return r.status === 0;
}

function vitest(project) {
  const file = join(out, `${project}.json`);
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
vitest("e2e");
rmSync(out, { recursive: true, force: true });
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
