import { randomUUID } from "node:crypto";
import type { SessionRoles } from "../agents/session-roles.ts";
import type { AgentDiscovery } from "../agents/index.ts";
import { TeamError } from "../errors.ts";
import { LEADER_NAME, makeInboxRecord, precompileMailCheckers } from "../mail/index.ts";
import { launcherRunsHere, type LaunchPreflight } from "../launch/index.ts";
import { messageSizeProblem } from "../mail/limits.ts";
import { handoffDelivery, handoffKickoff, type HandoffContext } from "../team/handoff.ts";
import { Member } from "../team/member.ts";
import { boardLayoutAt } from "../store/index.ts";
import { validateTeammateName } from "../mail/names.ts";
import { planSpawn } from "../team/spawn-plan.ts";
import { MAX_LIVING_TEAMMATES, type ResolvedHarnessOptions, type SpawnRequest, type SpawnResult } from "./harness-types.ts";
import type { TeamDriver } from "./team-driver.ts";
import { launchFailure, preflightTeammate, teammateLaunch } from "./launch-teammate.ts";
import { describeModel, resolveSpawn, type Resolved } from "./spawn-resolve.ts";
import { handoffContextFrom, sessionFileIn, teammateSessionDir, usableNotebook } from "./teammate-sessions.ts";
import { captureHasNews, captureNote, worktreeKeptText } from "./worktree-report.ts";

/** What `spawnTeammate` needs from the harness that owns it. */
export interface SpawnDeps {
  o: ResolvedHarnessOptions;
  team: TeamDriver;
  /** Names of spawns in flight that have not registered their teammate yet. */
  spawning: string[];
  roles: SessionRoles;
  /** Files plus session roles. */
  discover(): Promise<AgentDiscovery>;
  /** Watches the child's close: its outbox is drained and its close applied; the lifecycle releases the rest. */
  watchExit(m: Member): void;
  /** The fresh worker bundle the child loads (src/process/worker-bundle.ts); undefined: the sources. */
  workerBundle(): Promise<string | undefined>;
}

/**
 * Starts a teammate (R13–R20, R22, L5, L13, L14) and waits until its child answers `get_state`.
 * Everything that can be refused is checked before any file, worktree or process exists: the
 * name and the limit, the role (a file, a session role, or an inline `definition`), `handoffFrom`,
 * the tool grant and the pinned model. Then the teammate is registered, its launcher is checked
 * (src/launch/: settings, binary, ssh host), its worktree is made (`worktree: true`), an inline
 * role is registered or written, and its pi is started under its launcher. Each resource is
 * recorded in the teammate's state as it is acquired (`acquired`); any failure, or a stop while
 * starting, is one `spawn_failed`, after which the lifecycle releases exactly what exists (a
 * new worktree and its empty branch, launch dirs, a started child).
 * @throws TeamError `invalid_input`, `limit_reached`, `illegal_transition`, `child_exited`, and
 *   `io_error` when git or the definition file write fails.
 */
export async function spawnTeammate(d: SpawnDeps, req: SpawnRequest): Promise<SpawnResult> {
  const { o, team } = d;
  const tooLong = req.prompt === undefined ? undefined : messageSizeProblem("teammate_spawn", "prompt", req.prompt);
  if (tooLong) throw new TeamError("invalid_input", tooLong);
  // Discover first: from the name and limit checks to reserving the name below there is no
  // await, so parallel spawns (several teammate_spawn calls in one reply) cannot pass the
  // checks together and overrun the limit or take one name twice.
  d.spawning.push(req.name);
  let discovery: AgentDiscovery;
  let priorContext: HandoffContext | undefined;
  let restoreFile: string | undefined;
  try {
    // A stopped incarnation of this name, or the handoff predecessor, may still be committing its
    // worktree: wait, so the successor sees its kept branch and no two captures touch one dir.
    const prior = [req.name, req.handoffFrom].map((n) => (n ? team.members.get(n.toLowerCase()) : undefined));
    await Promise.all(prior.map((m) => (m && !m.living ? m.closed : undefined)));
    discovery = await d.discover();
    // Read here, before the checks below: from them to reserving the name there is no await.
    const predecessor = prior[1];
    if (predecessor && !predecessor.living) priorContext = await handoffContextFrom(predecessor.holdings.session);
    if (req.restore?.session) restoreFile = await sessionFileIn(req.restore.session);
  } finally {
    d.spawning.splice(d.spawning.indexOf(req.name), 1);
  }
  if (team.phase !== "open") throw new TeamError("illegal_transition", "teammate_spawn: the session is ending; nothing was started.");
  const members = [...team.members.values()];
  const livingNames = members.filter((m) => m.living).map((m) => m.name);
  const nameCheck = validateTeammateName(req.name, livingNames);
  if (!nameCheck.ok) throw new TeamError("invalid_input", `teammate_spawn: ${nameCheck.message}`);
  if (livingNames.length >= MAX_LIVING_TEAMMATES) {
    throw new TeamError(
      "limit_reached",
      `teammate_spawn: ${livingNames.length} teammates are alive (${livingNames.join(", ")}); at most ${MAX_LIVING_TEAMMATES} may live at once. Shut one down with teammate_shutdown first.`,
    );
  }
  const r = resolveSpawn({ o: d.o, members: team.members, roles: d.roles }, discovery, req);
  const spawnId = randomUUID();
  const { layout } = o;
  const facts = r.predecessor?.handoffFacts();
  const runsHere = launcherRunsHere(r.agent.launcher);
  // A session written inside a bwrap box is the boxed teammate's to forge: it never becomes the
  // trusted history of a teammate outside a box.
  const unboxes = (fromBox: boolean | undefined): boolean => fromBox === true && r.agent.launcher !== "bwrap";
  const handoffContext: HandoffContext | undefined = !facts ? undefined
    : !runsHere ? { mode: "summary", reason: `its launcher ${JSON.stringify(r.agent.launcher)} runs pi elsewhere, where a session file here means nothing` }
    : unboxes(r.predecessor?.agent.launcher === "bwrap") ? { mode: "summary", reason: "its session was written inside a bwrap box, and a successor outside one does not start from it" }
    : priorContext;
  // A restored teammate starts from a copy of its own session file: its context back, in a new
  // file whose header names its new cwd (a resumed worktree teammate has a new worktree dir).
  const fork = !runsHere ? undefined
    : req.restore ? (unboxes(req.restore.boxed) ? undefined : restoreFile)
    : handoffContext?.mode === "fork" ? handoffContext.file : undefined;
  const handoff = facts ? handoffKickoff(facts, { ...(req.prompt ? { prompt: req.prompt } : {}), worktree: r.agent.worktree, forked: fork !== undefined }) : undefined;
  // A handoff without an open assignment goes as mail, so the board stays open to the successor.
  const handoffMail = facts && handoffDelivery(facts, req.prompt) === "mail" ? handoff : undefined;
  const kickoff = handoffMail ? undefined : (handoff ?? req.prompt);
  const m = new Member({
    name: req.name,
    agent: r.agent,
    spawnId,
    tools: r.tools,
    resources: req.resources ?? [],
    model: r.choice.model,
    modelLabel: describeModel(r.choice),
    startedAt: o.clock.now(),
    log: layout.log(req.name),
    ...team.mail.of(req.name),
    ...(kickoff ? { assignment: kickoff } : {}),
  });
  team.members.set(req.name.toLowerCase(), m);
  team.peers.reset(m.name, "spawned"); // a new incarnation starts with no peer count (W19)
  // Acquire-then-register: each resource is recorded in its state the moment it exists, so a
  // failure (or a stop while starting) releases exactly what exists (`spawn_failed`).
  let launch: LaunchPreflight | undefined;
  try {
    launch = await preflightTeammate(o, m); // its launcher can start: before any worktree exists
    if (launch.sandbox) team.dispatch(m, { type: "acquired", holdings: { launchDirs: [launch.sandbox.dir] } });
    const session = runsHere ? teammateSessionDir(o.boardDir, m.name, spawnId) : undefined;
    const notebook = runsHere ? await usableNotebook(boardLayoutAt(o.boardDir).notebook, (text) => team.note(text, m)) : undefined;
    if (session) {
      await o.files.ensurePrivateDir(session);
      if (notebook) await o.files.ensurePrivateDir(notebook);
      team.dispatch(m, { type: "acquired", holdings: { session } });
    }
    await prepare(d, m, r, r.predecessor?.kept ?? req.restore?.branch);
    await team.writeRoster();
    const workerBundle = await d.workerBundle();
    const plan = planSpawn({
      name: req.name,
      spawnId,
      tools: r.tools,
      model: r.choice,
      trusted: o.trusted(),
      packageDir: o.packageDir,
      extensions: r.extensions,
      runtimeDir: layout.root,
      boardDir: o.boardDir,
      leaderPid: process.pid,
      project: o.cwd,
      ...(m.worktree ? { worktree: m.worktree.dir } : {}),
      ...(workerBundle ? { workerBundle } : {}),
      ...(session ? { session: { dir: session, ...(fork ? { fork } : {}) } } : {}),
      ...(notebook ? { notebook } : {}),
    });
    const command = teammateLaunch(o, m, launch, plan, r.extensions);
    // Its launch dirs are removed when its close has been handled (the `release` effect).
    team.dispatch(m, { type: "acquired", holdings: { transport: command.transport, launchDirs: command.removeAfterClose } });
    const answerUi = o.board.answerUi;
    const started = await o.spawner({
      piCli: o.piCli, args: plan.args, command, cwd: m.cwd(o.cwd), env: command.env, stderrLog: layout.log(req.name), label: `teammate ${req.name}`,
      dropSysAdmin: launch.launcher.kind === "local", // a launcher (bwrap as root) may need it itself
      // A stream teammate's pipe is its identity: it gets no spawn key (nor the fd-3 pipe).
      ...(command.transport === "files" ? { spawnKey: team.keys.issue(req.name, spawnId) } : {}),
      ...(answerUi ? { answerUi: (request, signal) => answerUi(m, request, signal) } : {}),
    });
    team.dispatch(m, { type: "acquired", holdings: { proc: started } });
  } catch (error) {
    await team.giveUp(m);
    throw error;
  }
  if (m.state.phase !== "starting") {
    // Shut down (or the session ended) while the process was being started.
    await team.giveUp(m);
    throw new TeamError("illegal_transition", `teammate_spawn: ${req.name} was shut down while it was starting; nothing is left running.`);
  }
  const proc = m.proc!;
  const listeners = [
    proc.child.onEvent((event) => team.onRpcEvent(m, event)),
    proc.child.onUiRequest((u) => {
      if (u.answer !== "none") team.note(`a ${u.request.method} dialog of the child was ${typeof u.answer === "object" ? "answered" : u.answer}`, m);
    }),
  ];
  proc.lifetime.addEventListener("abort", () => listeners.forEach((dispose) => dispose()), { once: true });
  d.watchExit(m);
  precompileMailCheckers(); // while the child starts, not in its first message (once per process)
  let answered = false;
  try {
    await proc.waitReady(o.readyTimeoutMs);
    answered = true;
    const sent = kickoff ? team.waits.kickoffSent(m) : undefined;
    // The handoff as mail is queued before `ready`, so it is the first wake, before any board notice.
    const mail = handoffMail ? [{ type: "mail" as const, records: [makeInboxRecord({ from: LEADER_NAME, to: m.name, body: handoffMail }, o.clock.now())] }] : [];
    await team.enqueue(m, () => [...mail, { type: "ready", ...(kickoff ? { kickoff } : {}) }]);
    if (m.status === "stopped") team.waits.releaseKickoff(m); // stopped before ready: no kickoff went out
    const error = await sent;
    if (error !== undefined) throw new TeamError("child_exited", `teammate_spawn: the kickoff prompt to ${req.name} failed: ${error}`);
    await team.writeRoster(); // with its pid, before the tool returns
  } catch (error) {
    void proc.stop({ graceMs: 500, termGraceMs: 500, abortFirst: false });
    team.stop(m);
    await m.closed;
    throw answered ? error : launchFailure(m, launch, error);
  }
  return {
    name: m.name,
    agent: m.agent.name,
    scope: m.agent.scope,
    spawnId,
    pid: proc.pid,
    status: m.status,
    tools: m.tools,
    model: describeModel(r.choice),
    kickoff: Boolean(kickoff),
    ...(handoffMail ? { handoffAs: "mail" as const } : {}),
    log: proc.stderrLogPath,
    ...(m.worktree ? { worktree: { dir: m.worktree.dir, branch: m.worktree.branch, base: m.worktree.base } } : {}),
    ...(r.predecessor ? { handoffFrom: r.predecessor.name } : {}),
    ...(handoffContext ? { handoffContext } : {}),
    ...(m.holdings.session ? { session: m.holdings.session } : {}),
    ...(req.restore ? { restored: fork ? "context" as const : "fresh" as const } : {}),
    ...(m.agent.scope !== "session" && r.inline?.persist ? { persisted: m.agent.source } : {}),
  };
}

/**
 * After the name is reserved: makes the worktree (when the role asks for one), then registers or
 * writes an inline role. In that order, so a refused worktree (no git repository) leaves no
 * definition file behind; each is recorded in `m`'s state as it exists, so a failed write's
 * `spawn_failed` removes the new worktree and its empty branch.
 */
async function prepare(d: SpawnDeps, m: Member, r: Resolved, kept: { name: string; base: string } | undefined): Promise<void> {
  if (r.agent.worktree) {
    await d.o.board.worktreesReady?.(); // the session-start reclaim must not race this prepare
    const { worktree, reclaimed } = await d.o.files.prepareWorktree({
      repoCwd: d.o.cwd,
      worktreesRoot: d.o.worktreesRoot,
      name: m.name,
      spawnId: m.spawnId,
      ...(kept ? { fromBranch: kept.name, base: kept.base } : {}),
      locks: d.o.worktreeLocks,
    });
    d.team.dispatch(m, { type: "acquired", holdings: { worktree } });
    // A worktree of this name left by a crashed session: its work was committed before this one.
    for (const cap of reclaimed.captures) {
      d.team.note(captureNote(cap), m);
      if (captureHasNews(cap)) d.team.event("worktree_kept", m.name, worktreeKeptText(`A worktree of ${cap.name} left by a session that ended without stopping its teammates was captured`, cap));
    }
  }
  if (r.inline?.persist) {
    const source = await d.o.files.persistDefinition({ cwd: d.o.cwd, name: r.agent.name, scope: r.inline.persist, markdown: r.inline.markdown });
    d.team.dispatch(m, { type: "acquired", holdings: { persisted: { scope: r.inline.persist, source } } });
    d.roles.delete(r.agent.name); // the file defines it now
  } else if (r.inline) {
    d.roles.register(r.agent);
  }
}
