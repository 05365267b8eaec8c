// The folder layering of src/, checked by dependency-cruiser (`npx depcruise src`, and by
// tests/unit/sanity/layers.test.ts in `npm test`). Type-only imports count: a lower folder that
// needs an upper folder's type has the type in the wrong place. docs/architecture.md draws it.
//
// Top: src/leader (Pi glue: the extension's events, tools, commands, the session that wires the
// rooms) and src/ui (the console's components). Below them the leader's rooms: src/feed (what the
// user sees of the team), which may read src/harness (the teammates) and src/boardhost (the
// board's shell); those two never import each other. Below the rooms the domain folders
// (agents, board, mail, team, process, reap, store, guard, isolation, launch, worker), none of
// which imports a room or a top folder. A room is entered only through its index.ts.
const TOP = "^src/(ui|leader)(/|$)";
const ROOMS = "^src/(harness|boardhost|feed)(/|$)";

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-folder-cycle",
      severity: "error",
      comment: "Folders of src/ form layers: no folder may reach itself through its imports.",
      scope: "folder",
      from: { path: "^src/" },
      to: { circular: true },
    },
    {
      name: "nothing-into-the-top",
      severity: "error",
      comment: "Nothing outside src/leader and src/ui imports them (the package entry src/extension.ts picks the leader side).",
      from: { path: "^src/", pathNot: [TOP, "^src/extension\\.ts$"] },
      to: { path: TOP },
    },
    {
      name: "ui-not-to-leader",
      severity: "error",
      comment: "The console draws from the feed and the domain, not from the leader's glue.",
      from: { path: "^src/ui/" },
      to: { path: "^src/leader/" },
    },
    {
      name: "domain-not-to-rooms",
      severity: "error",
      comment: "The domain folders know nothing of the leader's rooms.",
      from: { path: "^src/", pathNot: [TOP, ROOMS, "^src/extension\\.ts$"] },
      to: { path: ROOMS },
    },
    {
      name: "rooms-apart",
      severity: "error",
      comment: "The harness and the board host meet only in the session (src/leader/team-session.ts); neither reads the feed.",
      from: { path: "^src/(harness|boardhost)/" },
      to: { path: "^src/(harness|boardhost|feed)/", pathNot: "^src/$1/" },
    },
    {
      name: "rooms-through-their-index",
      severity: "error",
      comment: "A room's index.ts is its public surface; other folders import nothing else of it.",
      from: { path: "^src/([^/]+)/" },
      to: { path: "^src/(harness|boardhost|feed)/", pathNot: ["^src/$1/", "/index\\.ts$"] },
    },
  ],
  options: {
    tsPreCompilationDeps: true,
    doNotFollow: { path: "node_modules" },
  },
};
