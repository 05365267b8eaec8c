/**
 * The user's view of the team in the leader's Pi (R61, R62): the `/agent-teams` console opened
 * through `ctx.ui.custom`, the passive widget under the editor, and their refresh from the
 * team's changes. Only the interactive TUI gets components; other modes get the plain-text
 * summary (src/ui/summary.ts).
 */
import type { ExtensionContext } from "@earendil-works/pi-coding-agent";
import { availableModels, knownModels } from "./model-registry.ts";
import type { TeamSession } from "./team-session.ts";
import { applyTeamModelCommand } from "../team/model-choice.ts";
import { boardByUser, sendAsUser } from "./user-orders.ts";
import { readTranscript } from "../feed/index.ts";
import { sessionFileIn } from "../harness/index.ts";
import { TeamConsole } from "../ui/console.ts";
import type { ConsoleActions, ConsolePage } from "../ui/console-model.ts";
import { consoleSummary } from "../ui/summary.ts";
import { reviewsInProgress, TeamWidget, widgetRows } from "../ui/widget.ts";

/** The widget's key in Pi's widget registry. */
export const WIDGET_KEY = "pi-resident-teams";
/** Fastest console refresh after team changes, in ms (streamed text changes the team often). */
export const CONSOLE_REFRESH_MS = 200;
/** How often the open console's clock ("working 12s") ticks, in ms. */
export const CONSOLE_CLOCK_MS = 1000;
/**
 * How long teammate dialogs keep waiting after the console closes, in ms: a key pressed right
 * after closing (a double-tapped Esc, an Enter) goes to the editor, not to a dialog not yet seen.
 */
export const DIALOG_GRACE_MS = 500;

/**
 * Installs the widget (R62) for `s` in an interactive leader: one row per starting or working
 * teammate and per running verify reviewer, hidden when nobody works. Its component redraws only while someone works. Returns
 * the uninstall (also run by Pi at /reload and session switches, which drop widgets).
 */
export function installWidget(ctx: ExtensionContext, s: TeamSession): () => void {
  if (ctx.mode !== "tui") return () => undefined;
  let widget: TeamWidget | undefined;
  ctx.ui.setWidget(WIDGET_KEY, (tui, theme) => {
    widget = new TeamWidget({ tui, theme, rows: () => widgetRows(s.workingRows(), Date.now(), reviewsInProgress(s.board.board)) });
    return widget;
  }, { placement: "belowEditor" });
  const changed = (): void => widget?.changed();
  // The board tells of reviewers starting and ending.
  const offs = [s.feed.subscribe(changed), s.harness.subscribe(changed), s.board.activity.subscribe(changed)];
  return () => {
    for (const off of offs) off();
  };
}

/** What the console's actions do, for a session. */
export function consoleActions(s: TeamSession, ctx: Pick<ExtensionContext, "modelRegistry">): ConsoleActions {
  const user = { mail: (row: Parameters<TeamSession["feed"]["mail"]>[0]) => s.feed.mail(row), note: s.leaderNote };
  return {
    shutdown: async (name) => {
      const r = await s.harness.shutdown(name);
      return `@${r.name} stopped: ${r.exit}`;
    },
    compact: (name) => s.harness.compact(name, "user"),
    interrupt: (name) => s.harness.interrupt(name),
    createTask: async (args) => boardByUser(user, `task_create ${JSON.stringify(args)}`, () => s.board.create(args, s.boardLabel)),
    offer: async (taskId, name) => boardByUser(user, `offer \`${taskId}\` to @${name}`, () => s.board.offer(taskId, name)),
    allowAttempt: async (taskId) => boardByUser(user, `one more review attempt for \`${taskId}\``, () => s.board.allowAttempt(taskId)),
    send: (name, text) => sendAsUser((req) => s.harness.sendFromUser(req), s.leaderNote, name, text),
    // Its latest incarnation's session file (issue 20); a stopped teammate's stays readable.
    transcript: async (name) => {
      const m = s.harness.members().find((x) => x.name === name);
      const file = m?.holdings.session ? await sessionFileIn(m.holdings.session) : undefined;
      if (file) return readTranscript(file);
      return [m?.holdings.session ? "(no conversation yet: Pi writes the session file at the first message)" : "(no session file: its launcher runs pi elsewhere)"];
    },
    // The same rules as `/agent-teams model <provider/id|default>`.
    setTeamModel: async (model) => {
      const r = applyTeamModelCommand(s.teamModel, model ? `${model.provider}/${model.id}` : "default", knownModels(ctx) ?? []);
      if (!r.ok) throw new Error(r.message);
      return r.message;
    },
  };
}

/**
 * `/agent-teams` (R61): in the TUI a full-screen overlay console, refreshed from the team's
 * changes (at most every `CONSOLE_REFRESH_MS`) and by a clock while open; elsewhere the
 * plain-text summary of the same pages. Opening it makes no model call and reads no file
 * beyond one discovery of the role files. Resolves when the console closes, or when Pi drops
 * it without closing it (/reload, a session switch).
 */
export async function openConsole(ctx: ExtensionContext, s: TeamSession, page?: ConsolePage): Promise<void> {
  if (ctx.mode !== "tui") {
    await s.discover();
    const text = consoleSummary(s.snapshot());
    if (ctx.hasUI) ctx.ui.notify(text, "info");
    else process.stdout.write(`${text}\n`);
    return;
  }
  // Teammate dialogs wait while the console is open: under it they would take keys unseen. The
  // hold starts before the discovery is awaited, so no dialog opens in between and is covered.
  const release = s.dialogs.hold();
  const offs: (() => void)[] = [];
  let timer: NodeJS.Timeout | undefined;
  const stop = (): void => {
    for (const off of offs.splice(0)) off();
    if (timer) clearTimeout(timer);
    setTimeout(release, DIALOG_GRACE_MS).unref();
  };
  let closing: string | undefined;
  try {
    await s.discover();
    closing = await new Promise<string | undefined>((resolve, reject) => {
      // At /reload and session switches Pi disposes the overlay without `done` and leaves
      // custom()'s promise pending. The command must end anyway: Pi's input loop awaits it and
      // would take no other prompt or command for the rest of the process.
      let closedByUser = false;
      ctx.ui.custom<string | undefined>((tui, theme, keybindings, done) => {
        const view = new TeamConsole({
          tui,
          theme,
          keybindings,
          snapshot: () => s.snapshot(),
          actions: consoleActions(s, ctx),
          models: () => availableModels(ctx),
          done: (summary) => {
            closedByUser = true;
            done(summary);
          },
          onDispose: () => {
            if (!closedByUser) resolve(undefined);
          },
          // An action still running at closing (a compaction takes a model call) reports later.
          lateResult: (line, tone) => {
            if (!s.closed) ctx.ui.notify(line, tone === "error" ? "error" : "info");
          },
          ...(page ? { page } : {}),
        });
        const refresh = (): void => {
          if (timer) return;
          timer = setTimeout(() => {
            timer = undefined;
            view.refresh();
          }, CONSOLE_REFRESH_MS);
        };
        offs.push(s.feed.subscribe(refresh), s.harness.subscribe(refresh));
        // Belt and braces for a drop that did not dispose: the clock ends with the session.
        const clock = setInterval(() => (s.closed ? resolve(undefined) : view.refresh()), CONSOLE_CLOCK_MS);
        clock.unref();
        offs.push(() => clearInterval(clock));
        return view;
      }, { overlay: true, overlayOptions: { anchor: "top-left", width: "100%", maxHeight: "100%" } }).then(resolve, reject);
    });
  } finally {
    stop(); // also when the console failed to open: a leaked hold would keep every dialog waiting
  }
  if (closing) ctx.ui.notify(closing, "info");
}
