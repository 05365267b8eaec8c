import { KeybindingsManager, TUI_KEYBINDINGS, type Component } from "@earendil-works/pi-tui";
import { describe, expect, it, vi } from "vitest";
import type { ExtensionContext } from "@earendil-works/pi-coding-agent";
import type { TeamSession } from "../../../src/leader/team-session.ts";
import { DIALOG_GRACE_MS, installWidget, openConsole } from "../../../src/leader/team-ui.ts";
import { add, finish, mate, newBoard, take } from "../board/fixture.ts";
import { ansiTheme, fixtureSnapshot, plain } from "../ui/fixture.ts";

type Factory = (tui: unknown, theme: unknown, keybindings: unknown, done: (r: string | undefined) => void) => Component & { dispose?(): void };

/**
 * A ctx whose `ui.custom` behaves like Pi 1.6.0's overlay (interactive-mode.js showExtensionCustom):
 * `done` disposes the component and then resolves; `reset()` is Pi's resetExtensionUI at /reload and
 * session switches: the component is disposed and the promise is left pending.
 */
function fakePi() {
  let component: (Component & { dispose?(): void }) | undefined;
  let close: ((r: string | undefined) => void) | undefined;
  const notify = vi.fn();
  const custom = vi.fn((factory: Factory) =>
    new Promise<string | undefined>((resolve) => {
      let closed = false;
      close = (r) => {
        if (closed) return;
        closed = true;
        component?.dispose?.();
        resolve(r);
      };
      const tui = { terminal: { rows: 20, columns: 80 }, requestRender: vi.fn() };
      component = factory(tui, ansiTheme, new KeybindingsManager(TUI_KEYBINDINGS), (r) => close?.(r));
    }),
  );
  const ctx = { mode: "tui", hasUI: true, ui: { custom, notify }, modelRegistry: {} } as unknown as ExtensionContext;
  return {
    ctx,
    notify,
    input: (data: string) => component?.handleInput?.(data),
    reset: () => component?.dispose?.(),
  };
}

/** A session with the parts openConsole uses; `held` counts the dialog holds not yet released. */
function fakeSession() {
  const state = { held: 0 };
  const s = {
    closed: false,
    discover: vi.fn(async () => undefined),
    snapshot: () => fixtureSnapshot(),
    dialogs: {
      hold: () => {
        state.held += 1;
        let released = false;
        return () => {
          if (!released) state.held -= 1;
          released = true;
        };
      },
    },
    feed: { subscribe: () => () => undefined },
    harness: { subscribe: () => () => undefined },
  } as unknown as TeamSession;
  return { s, state };
}

/** Whether `p` settles within `ms`. */
async function settles(p: Promise<unknown>, ms = 200): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((r) => (timer = setTimeout(() => r(false), ms)));
  const done = await Promise.race([p.then(() => true), late]);
  clearTimeout(timer);
  return done;
}

describe("openConsole and Pi's overlay lifecycle", () => {
  it("q closes: the command ends, the dialog hold is released a moment later, no notice without an action", async () => {
    const pi = fakePi();
    const { s, state } = fakeSession();
    const opened = openConsole(pi.ctx, s);
    await vi.waitFor(() => expect(state.held).toBe(1));
    pi.input("q");
    expect(await settles(opened)).toBe(true);
    // Keys pressed right after closing (a second Esc, an Enter) must not answer a dialog unseen.
    expect(state.held).toBe(1);
    await new Promise((r) => setTimeout(r, DIALOG_GRACE_MS - 100));
    expect(state.held).toBe(1);
    await vi.waitFor(() => expect(state.held).toBe(0), { timeout: 1000 });
    expect(pi.notify).not.toHaveBeenCalled();
  });

  it("holds teammate dialogs from the moment the command runs, before the role discovery it awaits", async () => {
    const pi = fakePi();
    const { s, state } = fakeSession();
    let discovered!: () => void;
    (s as unknown as { discover: () => Promise<void> }).discover = () => new Promise<void>((r) => (discovered = r));
    const opened = openConsole(pi.ctx, s);
    await Promise.resolve();
    expect(state.held).toBe(1); // a dialog arriving during discovery waits instead of opening under the console
    discovered();
    await vi.waitFor(() => expect(pi.ctx.ui.custom).toHaveBeenCalled());
    pi.input("q");
    expect(await settles(opened)).toBe(true);
    await vi.waitFor(() => expect(state.held).toBe(0), { timeout: 1000 });
  });

  it("an action still running when the console closes is reported by a notice once it ends", async () => {
    const pi = fakePi();
    const { s, state } = fakeSession();
    let stopped!: () => void;
    (s as unknown as { harness: object }).harness = {
      subscribe: () => () => undefined,
      shutdown: () => new Promise((r) => (stopped = () => r({ name: "scout", exit: "stopped (code 0)" }))),
    };
    const opened = openConsole(pi.ctx, s);
    await vi.waitFor(() => expect(state.held).toBe(1));
    pi.input("x");
    pi.input("y");
    await vi.waitFor(() => expect(stopped).toBeDefined());
    pi.input("q");
    expect(await settles(opened)).toBe(true);
    expect(pi.notify).toHaveBeenCalledWith("Shutting down @scout…", "info");
    stopped();
    await vi.waitFor(() => expect(pi.notify).toHaveBeenLastCalledWith("@scout stopped: stopped (code 0)", "info"));
  });

  it("a /reload or session switch that drops the overlay without done still ends the command (else Pi's input loop waits for ever)", async () => {
    const pi = fakePi();
    const { s, state } = fakeSession();
    const opened = openConsole(pi.ctx, s);
    await vi.waitFor(() => expect(state.held).toBe(1));
    pi.reset();
    expect(await settles(opened)).toBe(true);
    await vi.waitFor(() => expect(state.held).toBe(0), { timeout: 1000 });
    expect(pi.notify).not.toHaveBeenCalled();
  });
});

describe("installWidget", () => {
  it("shows a verify reviewer that starts while no teammate works: the board tells of it", () => {
    let factory: ((tui: unknown, theme: unknown) => Component & { dispose?(): void }) | undefined;
    const ctx = { mode: "tui", ui: { setWidget: (_key: string, f: typeof factory) => (factory = f) } } as unknown as ExtensionContext;
    const boardListeners: (() => void)[] = [];
    const board = newBoard();
    const s = {
      workingRows: () => [],
      feed: { subscribe: () => () => undefined },
      harness: { subscribe: () => () => undefined },
      board: { board, activity: { subscribe: (l: () => void) => (boardListeners.push(l), () => undefined) } },
    } as unknown as TeamSession;
    const uninstall = installWidget(ctx, s);
    const tui = { terminal: { rows: 20, columns: 80 }, requestRender: vi.fn() };
    const widget = factory!(tui, ansiTheme);
    expect(widget.render(80)).toEqual([]);
    add(board, "Add multiply");
    take(board, mate("cy"), "add-multiply");
    finish(board, mate("cy"), "add-multiply", "completed", "Run the tests."); // in review: its reviewer starts
    for (const l of boardListeners) l(); // the board tells of the reviewer
    expect(tui.requestRender).toHaveBeenCalledTimes(1);
    expect(plain(widget.render(80))[0]).toMatch(/ reviewer · reviewing #add-multiply for @cy$/);
    widget.dispose?.();
    uninstall();
  });
});
