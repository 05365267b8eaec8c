import type { Theme, ThemeBg, ThemeColor } from "@earendil-works/pi-coding-agent";
import { KeybindingsManager, TUI_KEYBINDINGS } from "@earendil-works/pi-tui";
import { describe, expect, expectTypeOf, it } from "vitest";
// Pi's theme registry is not exported from the package root; the built-in themes are needed to
// prove every token the UI uses exists (an unknown token throws "Unknown theme color").
import { getThemeByName } from "../../../node_modules/@earendil-works/pi-coding-agent/dist/modes/interactive/theme/theme.js";
import { TeamConsole } from "../../../src/ui/console.ts";
import { UI_BG_TOKENS, UI_FG_TOKENS, type KeybindingsLike, type ThemeLike, type UiBg, type UiFg } from "../../../src/ui/ports.ts";
import { renderHarnessEvent, renderTeammateReport } from "../../../src/ui/renderers.ts";
import { TeamWidget } from "../../../src/ui/widget.ts";
import { expectFrame, fixtureSnapshot, KEY, MODELS } from "./fixture.ts";

describe("ports: Pi's real objects fit (L16)", () => {
  it("the token subsets are Pi theme tokens, and Theme and KeybindingsManager satisfy the interfaces", () => {
    expectTypeOf<UiFg>().toExtend<ThemeColor>();
    expectTypeOf<UiBg>().toExtend<ThemeBg>();
    expectTypeOf<Theme>().toExtend<ThemeLike>();
    expectTypeOf<KeybindingsManager>().toExtend<KeybindingsLike>();
  });

  for (const name of ["dark", "light"]) {
    it(`the ${name} theme knows every token and renders every page, the widget and the renderers`, () => {
      const theme = getThemeByName(name);
      if (!theme) throw new Error(`no built-in theme ${name}`);
      for (const t of UI_FG_TOKENS) expect(() => theme.fg(t, "x")).not.toThrow();
      for (const t of UI_BG_TOKENS) expect(() => theme.bg(t, "x")).not.toThrow();

      const tui = { terminal: { rows: 20, columns: 80 }, requestRender: () => {} };
      const actions = { shutdown: async () => "", compact: async () => "", setTeamModel: async () => "", transcript: async () => [], send: async () => "", interrupt: async () => "", createTask: async () => "", offer: async () => "", allowAttempt: async () => "" };
      const c = new TeamConsole({ tui, theme, keybindings: new KeybindingsManager(TUI_KEYBINDINGS), snapshot: fixtureSnapshot, actions, models: () => MODELS, done: () => {} });
      for (let page = 0; page < 4; page++) {
        expectFrame(c.render(80), 80, 20);
        c.handleInput(KEY.enter);
        expectFrame(c.render(80), 80, 20);
        c.handleInput(KEY.esc);
        c.handleInput(KEY.tab);
      }
      c.handleInput("x");
      expectFrame(c.render(80), 80, 20);
      c.handleInput("n");
      c.handleInput("m");
      expectFrame(c.render(80), 80, 20);

      const widget = new TeamWidget({ tui, theme, rows: () => [{ name: "a", activity: "b", stall: "stalled 3m" }] });
      expect(widget.render(80)).toHaveLength(1);
      widget.dispose();
      const o = { expanded: false, outputPad: 1, keyHint: (_: string, d: string) => d };
      expect(renderTeammateReport({ content: "", details: { from: "a", status: "failed", body: "b" } }, o, theme).render(40)).toHaveLength(1);
      expect(renderHarnessEvent({ content: "b", details: { type: "crashed" } }, o, theme).render(40)).toHaveLength(1);
    });
  }
});
