import { afterEach, describe, expect, it, vi } from "vitest";
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import { registerTeamCommands } from "../../../src/leader/commands.ts";
import type { TeamSession } from "../../../src/leader/team-session.ts";

/** The `/agent-teams` handler, registered on a fake Pi. */
function handler(session: TeamSession | undefined) {
  let h: ((args: string, ctx: unknown) => Promise<void>) | undefined;
  registerTeamCommands({ registerCommand: (_n: string, c: { handler: typeof h }) => void (h = c.handler) } as unknown as ExtensionAPI, () => session);
  return h!;
}

afterEach(() => {
  vi.restoreAllMocks();
  process.exitCode = undefined;
});

describe("/agent-teams answers", () => {
  it("with a notice where Pi has a UI", async () => {
    const notify = vi.fn();
    await handler(undefined)("", { hasUI: true, ui: { notify } });
    expect(notify).toHaveBeenCalledWith(expect.stringContaining("not running"), "error");
  });

  it("on stderr with exit code 1 under pi -p, where a notice would vanish (a typo is not silent)", async () => {
    const write = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    const notify = vi.fn();
    await handler({} as TeamSession)("bord", { hasUI: false, ui: { notify } });
    expect(notify).not.toHaveBeenCalled();
    expect(String(write.mock.calls[0]?.[0])).toContain('Unknown subcommand "bord"');
    expect(process.exitCode).toBe(1);
  });
});
