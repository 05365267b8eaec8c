import { describe, expect, it } from "vitest";
import { REVIEWER_TOOLS, reviewerArgs } from "../../../src/process/index.ts";

/** The value following `flag` in `args`, or undefined when the flag is absent. */
function valueOf(args: string[], flag: string): string | undefined {
  const i = args.indexOf(flag);
  return i < 0 ? undefined : args[i + 1];
}

describe("reviewerArgs: a reviewer loads nothing the holder could plant", () => {
  it.each([true, false])("trusted=%s: no extensions, skills, prompt templates or context files", (trusted) => {
    const args = reviewerArgs({ trusted, model: undefined });
    for (const flag of ["--no-session", "--no-extensions", "--no-skills", "--no-prompt-templates", "--no-context-files"]) expect(args).toContain(flag);
    expect(args).toContain(trusted ? "-a" : "-na");
    expect(valueOf(args, "--tools")).toBe(REVIEWER_TOOLS.join(","));
  });

  it("passes an empty --system-prompt and --append-system-prompt, so .pi/SYSTEM.md and APPEND_SYSTEM.md are never looked up", () => {
    const args = reviewerArgs({ trusted: true, model: undefined });
    // Empty, not some text: Pi first reads a non-empty value as a file path under the cwd.
    expect(valueOf(args, "--system-prompt")).toBe("");
    expect(valueOf(args, "--append-system-prompt")).toBe("");
    expect(args.filter((a) => a === "--append-system-prompt")).toHaveLength(1);
  });

  it("adds the team model when there is one", () => {
    const args = reviewerArgs({ trusted: false, model: { provider: "p", id: "m" } });
    expect(valueOf(args, "--provider")).toBe("p");
    expect(valueOf(args, "--model")).toBe("m");
    expect(reviewerArgs({ trusted: false, model: undefined })).not.toContain("--model");
  });
});
