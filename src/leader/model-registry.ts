import type { ExtensionContext } from "@earendil-works/pi-coding-agent";
import type { ModelRef } from "../team/spawn-plan.ts";

/** Every model Pi's registry knows; undefined when the registry cannot be read (no check then). */
export function knownModels(ctx: Pick<ExtensionContext, "modelRegistry">): ModelRef[] | undefined {
  try {
    return ctx.modelRegistry.getAll().map((m) => ({ provider: m.provider, id: m.id }));
  } catch {
    return undefined;
  }
}

/** Pi's models that have auth configured (the console's model picker); [] when the registry cannot be read. */
export function availableModels(ctx: Pick<ExtensionContext, "modelRegistry">): ModelRef[] {
  try {
    return ctx.modelRegistry.getAvailable().map((m) => ({ provider: m.provider, id: m.id }));
  } catch {
    return [];
  }
}
