/**
 * Which tool names a role may grant its teammate (L5). Pure.
 *
 * Teammates start with `--no-extensions` (only this package is loaded with `-e`, plus the role's own
 * `extensions`), so the tools a child can have are Pi's built-in tools, the four team tools this
 * package registers, and whatever the role's extensions register. A role without `extensions`
 * naming anything else (an extension or MCP tool such as `mcp_foo`, or a typo) would start a
 * teammate that silently lacks the tool, so the grant is checked before any process exists.
 */
import { nearMisses } from "./near-miss.ts";

/** The capability tools every teammate gets on top of its role tools (L5). */
export const WORKER_TOOLS = ["send_message", "task_list", "task_claim", "task_submit"] as const;

/**
 * Pi 1.6.0's built-in tool names, in the order `pi --help` lists them under "Built-in Tool
 * Names". Hard-coded because Pi's root package does not export its `allToolNames`; a unit test
 * runs the real `pi --help` and fails when the list there changes.
 */
export const PI_BUILTIN_TOOLS = ["read", "bash", "powershell", "edit", "write", "grep", "find", "ls"] as const;

/** Outcome of {@link checkToolGrant}. */
export type ToolGrantResult =
  | {
      ok: true;
      /** Effective grant: the role tools in order, then the team tools, de-duplicated. */
      tools: string[];
      /** Role tools that are not known, accepted as tools of the role's extensions (`extensionTools`); unchecked. Absent when none. */
      fromExtensions?: string[];
    }
  | {
      ok: false;
      /** The role tools that are neither known nor team tools, in role order. */
      unknown: string[];
      /** Names each unknown tool (with a "did you mean" for near misses) and lists the known ones. */
      message: string;
    };

/**
 * Checks a role's `tools` field and computes the effective grant (L5).
 *
 * @param roleTools the definition's tools (`undefined` when the file has no `tools` field, which
 *   grants only the team tools).
 * @param known the tool names a teammate can have besides the team tools; pass
 *   {@link PI_BUILTIN_TOOLS}.
 * @param options.extensionTools the role loads extensions: an unknown tool may be one of theirs
 *   (it cannot be checked without loading them), so it is granted and listed in `fromExtensions`.
 * @returns `{ ok: true, tools }` with role tools in order then `send_message, task_list,
 *   task_claim, task_submit`, de-duplicated (a role may list a team tool; it is kept once, in the
 *   role's position); or `{ ok: false, unknown, message }` when any role tool is unknown. Names
 *   are compared exactly (Pi's tool names are case-sensitive), so `Read` is unknown and the
 *   message suggests `read`. Never throws.
 */
export function checkToolGrant(roleTools: readonly string[] | undefined, known: readonly string[], options: { extensionTools?: boolean } = {}): ToolGrantResult {
  const role = roleTools ?? [];
  const grantable = [...known, ...WORKER_TOOLS];
  const unknown = [...new Set(role.filter((tool) => !grantable.includes(tool)))];
  if (unknown.length === 0 || options.extensionTools) {
    return { ok: true, tools: [...new Set([...role, ...WORKER_TOOLS])], ...(unknown.length > 0 ? { fromExtensions: unknown } : {}) };
  }
  return { ok: false, unknown, message: unknownToolsMessage(unknown, known, grantable) };
}

function unknownToolsMessage(unknown: readonly string[], known: readonly string[], grantable: readonly string[]): string {
  const named = unknown.map((tool) => {
    const near = nearMisses(tool, grantable, 2);
    return near.length === 0 ? quote(tool) : `${quote(tool)} (did you mean ${near.map(quote).join(" or ")}?)`;
  });
  const subject = unknown.length === 1 ? `Unknown tool ${named[0]}` : `Unknown tools ${named.join(", ")}`;
  return (
    `${subject} in the role's tools field. ` +
    "Teammates run with only Pi's built-in tools plus the team tools: children start with --no-extensions, " +
    "so extension and MCP tools are not available to them unless the role loads the extension that registers the tool (the extensions field). " +
    `Known tools: ${known.join(", ")}. Team tools (always granted): ${WORKER_TOOLS.join(", ")}. ` +
    "Fix or remove the tool in the role's definition file and spawn again."
  );
}

const quote = (name: string): string => JSON.stringify(name);
