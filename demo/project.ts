/** The demo's throwaway project: its source files and agent files (see demo/stage.ts). */

/** Files of the throwaway project, committed before the leader starts. */
export const PROJECT_FILES: Record<string, string> = {
  "src/greet.js": 'export function greet(name) {\n  return `Hello, ${name}!`;\n}\n',
};

function agentFile(front: string[], body: string): string {
  return `---\n${front.join("\n")}\n---\n${body}\n`;
}

/** Four project agent files, showing the two `tools` forms, `model: inherit` and `worktree: true`. */
export const AGENTS: Record<string, string> = {
  "researcher.md": agentFile(
    ["name: researcher", "description: Finds where things live in the code and reports facts, never edits", "tools: read, grep, find, ls"],
    "Investigate the question you are given. Report file paths and line numbers. Do not edit files.",
  ),
  "implementer.md": agentFile(
    ["name: implementer", "description: Makes small, focused code changes", "tools:", "  - read", "  - write", "  - edit", "model: inherit"],
    "Make the requested change with the smallest diff that works. Report what you changed.",
  ),
  "reviewer.md": agentFile(
    ["name: reviewer", "description: Reads a change and judges it against the request", "tools: read, grep", "verify: The change does what was asked and nothing else."],
    "Review the change you are pointed at. Say PASS or FAIL with reasons.",
  ),
  "builder.md": agentFile(
    ["name: builder", "description: Builds a change in its own git worktree, on its own branch", "tools: read, write, edit", "worktree: true"],
    "Build what you are asked in your worktree. Your work stays on your branch for the lead to review and merge.",
  ),
};
