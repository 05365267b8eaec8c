/**
 * An isolated place to run real pi processes against the scripted model: a temp root holding an
 * agent dir (PI_CODING_AGENT_DIR with models.json + settings.json naming the scripted model as the
 * default) and a project dir that is a real git repository with one commit.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { IDENTITY_HEADER, IDENTITY_HEADER_COMMAND, type ScriptedModel } from "./scripted-model.ts";

/** Provider id of the scripted model in models.json. */
export const SCRIPTED_PROVIDER = "scripted";
/** Model id of the scripted model in models.json. */
export const SCRIPTED_MODEL_ID = "scripted-1";

export interface PiEnv {
  /** Temp root holding everything below; removed by `cleanup`. */
  root: string;
  /** The isolated agent dir (PI_CODING_AGENT_DIR) with models.json and settings.json. */
  agentDir: string;
  /** Project dir: a git repo on branch main with one commit (README.md). Use as the pi cwd. */
  cwd: string;
  /** Environment for pi: no provider keys, no inherited PI_* vars, isolated agent dir, offline. */
  env: Record<string, string>;
  /** Absolute path of the pi CLI script (run it as `nodePath piCli ...`). */
  piCli: string;
  /** The Node 22 binary running the tests (process.execPath). */
  nodePath: string;
  /** Removes `root` and everything in it. */
  cleanup(): Promise<void>;
}

export interface PiEnvOptions {
  /** The running scripted model the env points at. */
  model: ScriptedModel;
  /** Directory to use as root (created if missing); default a fresh dir under os.tmpdir(). */
  root?: string;
  /** Extra top-level settings.json keys, merged over the defaults below. */
  settings?: Record<string, unknown>;
  /**
   * More models of the scripted provider, like "scripted-1" but with their own id and limits
   * (e.g. a small `contextWindow` so a teammate pinned to it looks nearly full).
   */
  extraModels?: { id: string; contextWindow: number; maxTokens: number }[];
}

/** Environment names that could carry credentials or a foreign pi / team identity. */
const SCRUB = [
  /API_?KEY|TOKEN|SECRET|PASSWORD|CREDENTIAL/i,
  /^PI_/,
  /^AI_AGENT$/,
  /^(OPENAI|ANTHROPIC|AWS|AZURE|GOOGLE|GEMINI|VERTEX|GCLOUD|CLOUDSDK|MISTRAL|GROQ|XAI|OPENROUTER|DEEPSEEK|CEREBRAS|FIREWORKS|TOGETHER|COPILOT|HF|HUGGINGFACE|OLLAMA|CLOUDFLARE|TYPESAFE|OPENCODE|AI_GATEWAY|ZAI|MOONSHOT|DASHSCOPE|MINIMAX)_/,
];

/** Finds the pi CLI by walking up from this file to node_modules/@earendil-works/pi-coding-agent. */
function findPiCli(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const pkg = join(dir, "node_modules", "@earendil-works", "pi-coding-agent", "package.json");
    if (existsSync(pkg)) {
      const bin = (JSON.parse(readFileSync(pkg, "utf8")) as { bin: Record<string, string> }).bin.pi;
      if (!bin) throw new Error(`${pkg} has no "bin.pi"`);
      return join(dirname(pkg), bin);
    }
    const up = dirname(dir);
    if (up === dir) throw new Error("@earendil-works/pi-coding-agent is not installed (run npm install)");
    dir = up;
  }
}

/**
 * Creates the isolated env. models.json defines provider "scripted" (api "openai-completions",
 * baseUrl `${model.url}/v1`, a literal dummy apiKey, the identity header, one zero-cost model
 * "scripted-1"); settings.json makes it the default and disables agent-level auto-retry so a
 * scripted `error` reaches the test at once (override with `settings.retry`).
 * @throws if the temp dirs cannot be written or git fails.
 */
export async function createPiEnv(opts: PiEnvOptions): Promise<PiEnv> {
  const root = opts.root ?? (await mkdtemp(join(tmpdir(), "pi-teams-test-")));
  const agentDir = join(root, "agent");
  const cwd = join(root, "project");
  await mkdir(agentDir, { recursive: true });
  await mkdir(cwd, { recursive: true });

  const models = {
    providers: {
      [SCRIPTED_PROVIDER]: {
        name: "Scripted",
        baseUrl: `${opts.model.url}/v1`,
        api: "openai-completions",
        apiKey: "scripted-no-key",
        headers: { [IDENTITY_HEADER]: IDENTITY_HEADER_COMMAND },
        models: [
          {
            id: SCRIPTED_MODEL_ID,
            name: "Scripted Model",
            reasoning: false,
            input: ["text"],
            cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
            contextWindow: 128000,
            maxTokens: 16384,
          },
          ...(opts.extraModels ?? []).map((m) => ({
            name: `Scripted Model ${m.id}`, reasoning: false, input: ["text"], cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, ...m,
          })),
        ],
      },
    },
  };
  const settings = {
    defaultProvider: SCRIPTED_PROVIDER,
    defaultModel: SCRIPTED_MODEL_ID,
    retry: { enabled: false },
    ...opts.settings,
  };
  await writeFile(join(agentDir, "models.json"), `${JSON.stringify(models, null, 2)}\n`);
  await writeFile(join(agentDir, "settings.json"), `${JSON.stringify(settings, null, 2)}\n`);

  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v !== undefined && !SCRUB.some((re) => re.test(k))) env[k] = v;
  }
  // Node 22 first on PATH, so a `node` run by the bash tool matches the one running pi.
  env.PATH = [dirname(process.execPath), env.PATH ?? ""].filter(Boolean).join(delimiter);
  env.PI_CODING_AGENT_DIR = agentDir;
  env.PI_OFFLINE = "1";
  env.PI_SKIP_VERSION_CHECK = "1";
  env.PI_TELEMETRY = "0";
  // TMPDIR stays shared on purpose: jiti caches transpiled extensions there (cold cache ~ +250 ms).

  const git = (...args: string[]): void => {
    execFileSync("git", ["-c", "user.name=Pi Teams Test", "-c", "user.email=pi-teams-test@example.invalid",
      "-c", "commit.gpgsign=false", "-c", "init.defaultBranch=main", ...args], { cwd, env, stdio: "pipe" });
  };
  await writeFile(join(cwd, "README.md"), "# scripted project\n\nA throwaway repository for pi-resident-teams tests.\n");
  git("init", "-q");
  git("add", "README.md");
  git("commit", "-q", "-m", "initial commit");

  return {
    root,
    agentDir,
    cwd,
    env,
    piCli: findPiCli(),
    nodePath: process.execPath,
    // Retried: a teammate of a leader killed just before may still be writing its session files
    // while it exits (ENOTEMPTY seen in CI after a TUI test's tmux kill).
    cleanup: () => rm(root, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 }),
  };
}
