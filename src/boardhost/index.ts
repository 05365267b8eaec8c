/** The public surface of src/boardhost/: what other folders may import. */
export * from "./board-apply.ts";
export * from "./board-calls.ts";
export * from "./board-host-types.ts";
export * from "./board-host.ts";
export * from "./board-trail.ts";
export * from "./member-board.ts";
