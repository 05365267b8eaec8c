import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

/**
 * The fault suite (`npm run test:faults`, issue 9 item 3): its own config, so `npm test` and the
 * shared vitest.config.ts projects never pick it up. Real pi processes on a 2-core machine, so
 * one file at a time, like the e2e project.
 */
export default defineConfig({
  root: fileURLToPath(new URL("../..", import.meta.url)),
  test: {
    name: "faults",
    include: ["tests/faults/**/*.test.ts"],
    environment: "node",
    testTimeout: 180_000,
    hookTimeout: 60_000,
    fileParallelism: false,
    // One worker process for all files: each file starts its own pis anyway, and a fresh worker
    // per file only adds its start-up.
    pool: "forks",
    poolOptions: { forks: { singleFork: true } },
  },
});
