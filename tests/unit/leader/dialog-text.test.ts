import { describe, expect, it } from "vitest";
import { DEFAULT_DIALOG_TIMEOUT_MS, MAX_DIALOG_TIMEOUT_MS, dialogBody, dialogReceipt, dialogTimeoutMs, resolveDialogTimeout } from "../../../src/leader/dialog-text.ts";
import type { RpcUiDialogRequest } from "../../../src/process/index.ts";

const input: RpcUiDialogRequest = { type: "extension_ui_request", id: "i", method: "input", title: "Name?" };

describe("resolveDialogTimeout (PI_TEAMMATE_DIALOG_TIMEOUT_MS)", () => {
  it("defaults to five minutes, reads whole milliseconds, and takes 0 as no limit", () => {
    expect(resolveDialogTimeout({})).toEqual({ timeoutMs: DEFAULT_DIALOG_TIMEOUT_MS, warnings: [] });
    expect(resolveDialogTimeout({ PI_TEAMMATE_DIALOG_TIMEOUT_MS: " " })).toEqual({ timeoutMs: 300_000, warnings: [] });
    expect(resolveDialogTimeout({ PI_TEAMMATE_DIALOG_TIMEOUT_MS: " 1500 " })).toEqual({ timeoutMs: 1500, warnings: [] });
    expect(resolveDialogTimeout({ PI_TEAMMATE_DIALOG_TIMEOUT_MS: "0" })).toEqual({ timeoutMs: 0, warnings: [] });
  });

  it("keeps the default with a warning naming the variable and the value; caps what no timer can wait", () => {
    expect(resolveDialogTimeout({ PI_TEAMMATE_DIALOG_TIMEOUT_MS: "5m" })).toEqual({
      timeoutMs: 300_000,
      warnings: ['PI_TEAMMATE_DIALOG_TIMEOUT_MS="5m" is not a whole number of milliseconds (0 means no limit); using 300000.'],
    });
    const huge = resolveDialogTimeout({ PI_TEAMMATE_DIALOG_TIMEOUT_MS: "99999999999" });
    expect(huge.timeoutMs).toBe(MAX_DIALOG_TIMEOUT_MS);
    expect(huge.warnings[0]).toContain('PI_TEAMMATE_DIALOG_TIMEOUT_MS="99999999999" is longer than a timer can wait');
  });
});

describe("dialogTimeoutMs", () => {
  it("takes the dialog's own positive timeout, else the fallback, else none", () => {
    expect(dialogTimeoutMs({ ...input, timeout: 2000 }, 300_000)).toBe(2000);
    expect(dialogTimeoutMs({ ...input, timeout: 0 }, 300_000)).toBe(300_000);
    expect(dialogTimeoutMs({ ...input, timeout: -5 }, 0)).toBeUndefined();
    expect(dialogTimeoutMs({ ...input, timeout: 1e15 }, 0)).toBe(MAX_DIALOG_TIMEOUT_MS);
  });
});

describe("dialog rows", () => {
  it("puts method and title first, then what the dialog showed", () => {
    expect(dialogBody({ ...input, placeholder: "ann" })).toBe("input: Name?\nplaceholder: ann");
    expect(dialogBody({ type: "extension_ui_request", id: "e", method: "editor", title: "Plan", prefill: "1.\n2." })).toBe("editor: Plan\nprefill:\n1.\n2.");
    expect(dialogBody({ type: "extension_ui_request", id: "s", method: "select", title: "Pick", options: [] })).toBe("select: Pick\noptions: (none)");
  });

  it("quotes a text answer, cut to 80 characters", () => {
    const receipt = dialogReceipt(input, { kind: "answered", answer: { value: "x".repeat(200) } });
    expect(receipt).toBe(`answered: "${"x".repeat(77)}…"`);
    expect(dialogReceipt(input, { kind: "cancelled", cancel: { why: "no_ui", mode: "json" } })).toBe("cancelled (json mode)");
    expect(dialogReceipt(input, { kind: "cancelled", cancel: { why: "ui_failed", error: "boom" } })).toBe("cancelled (the leader's UI failed: boom)");
  });
});
