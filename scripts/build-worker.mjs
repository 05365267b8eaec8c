// `npm run build`, and `prepare` (so `npm install` runs it): bundles the teammate side into dist/
// (src/process/worker-bundle.ts). It never fails the install: without esbuild (`npm install
// --omit=dev`) or on a Node that cannot load TypeScript, it says so and exits 0, and teammates
// load the sources instead (slower to start, same behaviour); a leader rebuilds it when it can.
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";

const root = dirname(dirname(fileURLToPath(import.meta.url)));
try {
  const { buildWorkerBundle } = await import("../src/process/worker-bundle.ts");
  console.log(`worker bundle: ${await buildWorkerBundle(root)}`);
} catch (error) {
  console.log(`worker bundle not built (teammates will load src/): ${error instanceof Error ? error.message : String(error)}`);
}
