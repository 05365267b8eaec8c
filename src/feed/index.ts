/** The public surface of src/feed/: what other folders may import. */
export * from "./feed-hooks.ts";
export * from "./notes.ts";
export * from "./run-timeline.ts";
export * from "./safe-text.ts";
export * from "./task-costs.ts";
export * from "./team-feed.ts";
export * from "./transcript.ts";
