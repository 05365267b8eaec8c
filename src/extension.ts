import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";

/** Composition root (filled in by the walking skeleton). */
export default function extension(_pi: ExtensionAPI): void {}
