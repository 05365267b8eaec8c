/**
 * The `/agent-teams` console, the widget under the editor, the plain-text summary and the
 * transcript renderers (R61, R62, R32). Pure components over a `ConsoleSnapshot`; the leader
 * builds the snapshot, opens the console with `ctx.ui.custom`, installs the widget with
 * `ctx.ui.setWidget` and registers the renderers.
 */
export * from "./console-model.ts";
export { TeamConsole, type TeamConsoleOptions } from "./console.ts";
export { consoleSummary, SUMMARY_ROWS_PER_PAGE } from "./summary.ts";
export { SPINNER_FRAMES, SPINNER_INTERVAL_MS, TeamWidget, WIDGET_MAX_ROWS, widgetRows, type TeamWidgetOptions } from "./widget.ts";
export {
  FINISH_ENTRY_TYPE,
  HARNESS_EVENT_TYPE,
  registerTeamRenderers,
  renderFinishEntry,
  renderHarnessEvent,
  renderTeammateReport,
  TEAMMATE_REPORT_TYPE,
  type MessageLike,
  type RenderOptionsLike,
} from "./renderers.ts";
export { formatCost, formatDuration, formatGauge, formatTokens } from "./format.ts";
export { isLiving, teammateStatus } from "./page-teammates.ts";
export { modelLabel, PI_DEFAULT_LABEL } from "./model-picker.ts";
export { UI_BG_TOKENS, UI_FG_TOKENS, type ConsoleKeybinding, type KeybindingsLike, type ThemeLike, type TuiLike, type UiBg, type UiFg } from "./ports.ts";
