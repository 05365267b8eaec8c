import { execFileSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");

interface Violation {
  rule: { name: string; severity: string };
  from: string;
  to: string;
  cycle?: { name: string }[];
}

/** Runs dependency-cruiser over src/ with the project's .dependency-cruiser.cjs; its JSON summary. */
function cruise(): { violations: Violation[]; error: number; totalCruised: number } {
  const cli = join(root, "node_modules", "dependency-cruiser", "bin", "dependency-cruise.mjs");
  // The exit code is the error count, so read the report whatever it is.
  let out: string;
  try {
    out = execFileSync(process.execPath, [cli, "src", "--output-type", "json"], { cwd: root, encoding: "utf8", maxBuffer: 64 << 20 });
  } catch (e) {
    out = (e as { stdout?: string }).stdout ?? "";
    if (out === "") throw e;
  }
  return JSON.parse(out).summary;
}

function shown(v: Violation): string {
  const path = v.cycle ? [v.from, ...v.cycle.map((c) => c.name)].join(" → ") : `${v.from} → ${v.to}`;
  return `${v.rule.name}: ${path}`;
}

describe("folder layering (.dependency-cruiser.cjs)", () => {
  it("keeps the layers of .dependency-cruiser.cjs: no folder cycle, nothing into src/ui or src/leader, rooms apart and entered through their index", () => {
    const summary = cruise();
    expect(summary.totalCruised).toBeGreaterThan(100); // it read src/, not an empty set
    const errors = summary.violations.filter((v) => v.rule.severity === "error").map(shown);
    expect(errors).toEqual([]);
    expect(summary.error).toBe(0);
  }, 60_000);
});
