// The folder layering of src/, checked by dependency-cruiser (`npx depcruise src`, and by
// tests/unit/sanity/layers.test.ts in `npm test`). Type-only imports count: a lower folder that
// needs an upper folder's type has the type in the wrong place.
//
// Upper folders: src/leader (the leader's shell) and src/ui (its console). Every other folder is
// lower: its code must not depend on either, so it stays usable and testable without them.
// src/ui may import the lower folders but not src/leader. Known and left for the step that
// splits src/leader into rooms (issue 19, scope 4): the three files in KNOWN_UI_TO_LEADER import
// src/leader (renderers.ts → team-feed; snapshot.ts → team-feed, task-costs, notes; team-ui.ts →
// team-session, model-registry), which closes the folder cycle leader → ui → leader. Those are
// warnings until then; any other src/ui file that imports src/leader is an error.
const UPPER = "^src/(ui|leader)(/|$)";
const KNOWN_UI_TO_LEADER = "^src/ui/(renderers|snapshot|team-ui)[.]ts$";

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-folder-cycle",
      severity: "error",
      comment: "Folders of src/ form layers: no folder may reach itself through its imports.",
      scope: "folder",
      from: { path: "^src/", pathNot: UPPER },
      to: { circular: true },
    },
    {
      name: "lower-not-to-upper",
      severity: "error",
      comment: "Nothing outside src/leader and src/ui imports them (the package entry src/extension.ts picks the leader side).",
      from: { path: "^src/", pathNot: [UPPER, "^src/extension\\.ts$"] },
      to: { path: UPPER },
    },
    {
      name: "ui-not-to-leader",
      severity: "error",
      comment: "The console draws from the domain, not from the leader's shell.",
      from: { path: "^src/ui/", pathNot: KNOWN_UI_TO_LEADER },
      to: { path: "^src/leader/" },
    },
    {
      name: "ui-not-to-leader-known",
      severity: "warn",
      comment: "Known (see the top of this file), for the rooms step.",
      from: { path: KNOWN_UI_TO_LEADER },
      to: { path: "^src/leader/" },
    },
    {
      name: "no-folder-cycle-leader-ui",
      severity: "warn",
      comment: "Known (see the top of this file): the cycles leader → ui → leader that ui-not-to-leader closes.",
      scope: "folder",
      from: { path: UPPER },
      to: { circular: true },
    },
  ],
  options: {
    tsPreCompilationDeps: true,
    doNotFollow: { path: "node_modules" },
  },
};
