import { join } from "node:path";
import { resolveNoticePace, workerBoardView } from "../board/index.ts";
import { localBranchExists, WorktreeLocks } from "../isolation/index.ts";
import type { LeaderNote } from "./user-orders.ts";
import type { TeamRecordPort } from "./team-record.ts";
import { TeamMemory } from "./team-memory.ts";
import { capsDrop, readHostCaps, resolvePiCli } from "../process/index.ts";
import { reapMarked, reapNote } from "../reap/index.ts";
import { ENV } from "../mail/identity.ts";
import { agentDir, boardLayout, runtimeLayout, sessionKey } from "../store/index.ts";
import { TeamBus } from "../team/bus.ts";
import { resolveHeartbeat } from "../team/heartbeat.ts";
import { isActive } from "../team/lifecycle-state.ts";
import { resolveCompactAt } from "../team/compaction.ts";
import { resolveLoopCalls } from "../team/model-call-rate.ts";
import { resolvePeerPairCap } from "../team/peer-pairs.ts";
import { formatModelRef, TeamModelSetting } from "../team/model-choice.ts";
import type { ModelRef } from "../team/spawn-plan.ts";
import { BoardCallWatch, BoardHost, boardMate, heldTasks, holdingsOf, openClaimOf, working, type BoardTrailPort } from "../boardhost/index.ts";
import { DialogRelay } from "./dialog-relay.ts";
import { resolveDialogTimeout } from "./dialog-text.ts";
import { LeaderHarness, reclaimLeftoverWorktrees, worktreeKeptText } from "../harness/index.ts";
import type { LeaderDelivery } from "../team/leader-delivery.ts";
import { feedSubmission, feedSignals, fetchStats, NoteLog, TaskCosts, TeamFeed } from "../feed/index.ts";
import type { AgentDiscovery } from "../agents/index.ts";
import { buildSnapshot, teammateRow } from "../ui/snapshot.ts";
import type { ConsoleSnapshot, TeammateRow } from "../ui/console-model.ts";
import { startSweep } from "./session-boundary.ts";

/** What a session's team needs from the Pi session that runs it. */
export interface TeamSessionOptions {
  sessionFile: string | undefined;
  cwd: string;
  packageDir: string;
  env: NodeJS.ProcessEnv;
  trusted: () => boolean;
  leaderModel: () => ModelRef | undefined;
  /** The leader's current thinking level (`ctx.thinkingLevel`), carried by `model: inherit`. */
  leaderThinking?: () => string | undefined;
  /** Every model Pi's registry knows (`ctx.modelRegistry`); undefined skips the pin check. */
  knownModels?: () => ModelRef[] | undefined;
  /** Starts one leader follow-up turn. Must not throw. */
  deliver: (d: LeaderDelivery) => void;
  /** The one end-of-life line of a teammate incarnation (R55), for the transcript; `ok` false for a failure end. */
  onLifeline?: (teammate: string, text: string, ok: boolean) => void;
  /** A failed board submission (W22), one line for the transcript, never for the leader's model. */
  onFailedSubmission?: (teammate: string, text: string) => void;
  /** The leader's record of its board.json writes in its Pi session (src/boardhost/board-trail.ts). */
  boardTrail?: BoardTrailPort;
  /** The leader's record of its living team in its Pi session (src/leader/team-record.ts). */
  teamRecord?: TeamRecordPort;
  /** One harness event for the leader's next turn, starting none (the user's own orders, issue 21). */
  leaderNote?: LeaderNote;
}

/**
 * One Pi session's team: the harness, the board host and the feed, which tell each other what
 * happened on the session's bus (`bus`, src/team/bus.ts; who hears a signal: grep `on("<type>"`)
 * and ask each other only the queries passed below as ports (mates, holdings, open claims...).
 * Built at `session_start`, closed at `session_shutdown`; a closed session's harness ignores
 * every late callback (L29).
 */
export class TeamSession {
  /** What the harness, the board host and the feed tell each other (src/team/signals.ts). */
  readonly bus = new TeamBus();
  readonly harness: LeaderHarness;
  readonly board: BoardHost;
  readonly notes: NoteLog;
  /** What the console and the widget show beyond the lifecycle state (activity, gauges, mail). */
  readonly feed = new TeamFeed();
  /** Set once `close` began: UI timers of this session end. */
  closed = false;
  /** Per-task cost for the Board page. */
  readonly costs = new TaskCosts();
  /** The last discovery, for the Roles page (the console never reads files per frame). */
  #discovery: AgentDiscovery | undefined;
  /** The board's key and path, for tool results. */
  readonly boardLabel: string;
  /** The team notebook (issue 20): named in the leader's and every teammate's guidance. */
  readonly notebook: string;
  /** The session's team default model (R6), set by `/agent-teams model`. */
  readonly teamModel = new TeamModelSetting();
  /** Problems with PI_TEAMMATE_* variables, for the user. */
  readonly warnings: string[];
  /** Shows teammates' dialogs to the user; `attach` it to the session's `ctx.ui` at session_start. */
  readonly dialogs: DialogRelay;
  /** Tells the leader's next turn what the user did by hand (src/leader/user-orders.ts). */
  readonly leaderNote: LeaderNote;
  readonly #agentDir: string;
  /** The session-start sweep and reclaim of leftover worktrees (a worktree spawn waits for it). */
  #reclaimed: Promise<void> = Promise.resolve();
  /** The session key (src/store/session-key.ts): the board's and the runtime dir's name. */
  readonly key: string;
  /** Shared by every capture of this session's worktrees: exit captures, spawns, the start-up reclaim. */
  readonly #worktreeLocks = new WorktreeLocks();
  /** The living team recorded in the leader's session, and brought back at a resume (issue 20). */
  readonly memory: TeamMemory;
  /** The leader's working directory. */
  readonly cwd: string;
  /** The pi CLI teammates run (`process.execPath <piCli>`). */
  readonly piCli: string;
  /** Rescans the board's intent folders while a teammate's board call is open (src/boardhost/board-calls.ts). */
  readonly #boardCalls = new BoardCallWatch(() => this.board.rescanIntents());

  constructor(o: TeamSessionOptions) {
    const key = sessionKey(o.sessionFile, o.cwd);
    const dir = agentDir(o.env);
    this.#agentDir = dir;
    this.key = key;
    const boardPaths = boardLayout(dir, key);
    this.notebook = boardPaths.notebook;
    this.cwd = o.cwd;
    this.leaderNote = o.leaderNote ?? (() => undefined);
    const layout = runtimeLayout(dir, key);
    const piCli = resolvePiCli();
    this.piCli = piCli;
    this.notes = new NoteLog({ file: join(layout.logDir, "harness.log") });
    const note = (text: string): void => this.notes.add(text);
    const pace = resolveNoticePace(o.env.PI_TEAMMATE_NOTICE_PACE_MS);
    const heartbeat = resolveHeartbeat(o.env);
    const compactAt = resolveCompactAt(o.env);
    const dialogTimeout = resolveDialogTimeout(o.env);
    const peerCap = resolvePeerPairCap(o.env);
    const loop = resolveLoopCalls(o.env);
    this.warnings = [...(pace.warning ? [pace.warning] : []), ...heartbeat.warnings, ...compactAt.warnings, ...dialogTimeout.warnings, ...peerCap.warnings, ...loop.warnings];
    this.dialogs = new DialogRelay({ feed: this.feed, note, timeoutMs: dialogTimeout.timeoutMs });
    this.boardLabel = `${key} (${boardPaths.board})`;
    this.harness = new LeaderHarness({
      bus: this.bus,
      cwd: o.cwd,
      layout,
      boardDir: boardPaths.root,
      agentDir: dir,
      piCli,
      packageDir: o.packageDir,
      env: o.env,
      trusted: o.trusted,
      leaderModel: o.leaderModel,
      leaderThinking: o.leaderThinking ?? (() => undefined),
      teamModel: () => this.teamModel.get(),
      knownModels: o.knownModels ?? (() => undefined),
      worktreesRoot: join(dir, "worktrees", key),
      worktreeLocks: this.#worktreeLocks,
      heartbeat: heartbeat.config,
      peerPairCap: peerCap.cap,
      loopCalls: loop.calls,
      compaction: { at: compactAt.at },
      board: {
        answerUi: (m, request, signal) => this.dialogs.ask(m.name, request, signal),
        holdings: (m) => holdingsOf(this.board.board, m),
        heldClaims: (m) => heldTasks(this.board.board, m).map((t) => ({ id: t.id, subject: t.subject, ...(t.state.status === "superseded" ? { superseded: true } : {}) })),
        streamBoard: {
          intent: (m, ask) => this.board.decideFromPipe({ ...ask, from: m.name, spawnId: m.spawnId }),
          view: (m, ask) => {
            const roster = this.harness.members().filter((x) => x.status !== "stopped").map((x) => ({ name: x.name, status: x.status, agent: x.agent.name }));
            return workerBoardView(this.board.board, { self: m.name, roster, ...ask });
          },
        },
        worktreesReady: () => this.#reclaimed,
        openClaim: (m) => openClaimOf(this.board.board, m),
        reopen: (m) => this.board.allowResubmit({ name: m.name, spawnId: m.spawnId }),
      },
    });
    const bus = this.bus;
    // Before the board subscribes: a teammate going away ends its open board calls first.
    bus.on("output", ({ member, output }) => this.#boardCalls.observe(member, output));
    bus.on("gone", ({ member }) => this.#boardCalls.forget(member));
    this.board = new BoardHost({
      layout: boardPaths,
      bus,
      keys: this.harness.keys,
      answer: (to, id, decision) => this.harness.answerIntent(to, id, decision),
      cwd: o.cwd,
      piCli,
      env: o.env,
      mates: () => this.harness.members().filter((m) => m.status !== "stopped").map(boardMate),
      teamWorking: () => this.harness.spawning().length > 0 || this.harness.members().some(working),
      spawning: () => [...this.harness.spawning(), ...this.harness.members().filter((m) => m.status === "starting").map((m) => m.name)],
      // Reviewers run on the team default model when one is set, else on the leader's.
      teamModel: () => this.teamModel.get() ?? o.leaderModel(),
      trusted: o.trusted,
      // A reviewer judges the holder's work where it is: in its worktree, if it has one.
      cwdOf: (holder) => this.harness.living(holder.name)?.cwd(o.cwd) ?? o.cwd,
      note,
      ...(o.boardTrail ? { trail: o.boardTrail } : {}),
      paceMs: pace.paceMs,
    });
    // What the user sees: the feed first, so a delivery is on the Mail page before its turn starts.
    feedSignals(bus, this.feed);
    bus.on("delivery", ({ delivery }) => o.deliver(delivery));
    bus.on("lifeline", ({ member, text, ok }) => o.onLifeline?.(member.name, text, ok));
    bus.on("note", ({ note: n }) => note(`${n.teammate ? `@${n.teammate}: ` : ""}${n.text}`));
    bus.on("board_changed", () => this.costs.observe(this.board.board, (id) => this.feed.get(id)));
    bus.on("board_changed", () => this.feed.timeline.board(this.board.board));
    bus.on("reviewer_usage", ({ taskId, usage }) => this.costs.reviewer(taskId, usage));
    this.memory = new TeamMemory({
      port: o.teamRecord,
      key,
      members: () => this.harness.members(),
      spawn: (req) => this.harness.spawn(req),
      // After the start-up reclaim: it deletes a killed teammate's branch that holds no work.
      branchExists: async (branch) => (await this.#reclaimed, localBranchExists(this.cwd, branch)),
      boardDir: boardPaths.root,
      closed: () => this.closed,
      note,
    });
    bus.on("activity", () => this.memory.observe());
    bus.on("spawn_ended", () => this.memory.observe());
    bus.on("submitted", ({ holder, submission }) => {
      const line = feedSubmission(this.feed, holder.name, submission);
      if (line) o.onFailedSubmission?.(holder.name, line);
    });
  }

  /** Starts the harness (takes the session lock), then the board. @throws TeamError `locked`. */
  async start(): Promise<void> {
    await this.harness.start();
    this.bus.on("activity", () => {
      for (const m of this.feed.phases(this.harness.members())) fetchStats(this.feed, m);
      this.board.teamChanged(); // subscribed first: the summary is queued before a headless wait ends
    });
    await this.board.start();
    // Once per session: a root leader whose children keep CAP_SYS_ADMIN (no setpriv) is told so.
    void readHostCaps().then((host) => {
      const { note } = capsDrop(host);
      if (note) this.notes.add(note);
    });
    // Runtime dirs of sessions whose leader is gone; never a living leader's (the lock decides).
    // Then the worktrees those sessions (or this one, before a crash) left uncommitted.
    const note = (text: string): void => this.notes.add(text);
    this.#reclaimed = startSweep({ agentDir: this.#agentDir, ownKey: this.key, note })
      .then(() => reclaimLeftoverWorktrees({
        agentDir: this.#agentDir,
        ownKey: this.key,
        inUse: (dir) => this.harness.members().some((m) => m.worktree?.dir === dir),
        note,
        locks: this.#worktreeLocks,
      }))
      .then((kept) => {
        const subject = (name: string): string => `A worktree of ${name} left by a session that ended without stopping its teammates was captured`;
        for (const cap of kept) this.harness.event("worktree_kept", "harness", worktreeKeptText(subject(cap.name), cap));
      })
      .catch((error: unknown) => note(`worktree reclaim failed: ${String(error)}`));
  }

  /** Discovers the roles now (files and session roles) and keeps the result for the console. Never rejects. */
  async discover(): Promise<AgentDiscovery> {
    this.#discovery = await this.harness.discover();
    return this.#discovery;
  }

  /** What the console shows now, from memory only (R61). */
  snapshot(now: number = Date.now()): ConsoleSnapshot {
    return buildSnapshot({
      now,
      members: this.harness.members(),
      feed: this.feed,
      board: this.board.board,
      costs: this.costs,
      discovery: this.#discovery,
      notes: this.notes.entries(),
      teamModel: this.teamModel.get() ? formatModelRef(this.teamModel.get()!) : "Pi default",
      teamModelRef: this.teamModel.get(),
      dialogsWaiting: this.dialogs.waiting,
      waiting: (id) => this.board.whyWaiting(id),
    });
  }

  /** Rows of the starting and working teammates only: the widget reads them on every render. */
  workingRows(): TeammateRow[] {
    const working = this.harness.members().filter((m) => isActive(m.status));
    return working.map((m) => teammateRow({ feed: this.feed, board: this.board.board }, m));
  }

  /**
   * Harness first: stopping its teammates releases their claims on the board (R21), which the
   * board's close then writes. Then every process still carrying this leader's pid is ended: each
   * teammate and reviewer was reaped as it closed, this catches any that a bound or a race let
   * through (src/reap/reaper.ts). Idempotent.
   */
  async close(): Promise<void> {
    this.closed = true;
    this.#boardCalls.close();
    this.dialogs.close(); // teammates blocked in a dialog get their answer (cancelled) before the stop
    try {
      await this.harness.close();
    } finally {
      // Also when the harness failed to close: an open board watcher keeps `pi -p` from exiting.
      await this.board.close();
      const reaped = await reapMarked([{ key: ENV.leaderPid, value: String(process.pid) }]).catch(() => undefined);
      const text = reaped && reapNote(reaped, "this session's teammates and reviewers");
      if (text) this.notes.add(text);
      this.notes.closeFile();
    }
  }
}
