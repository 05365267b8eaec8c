/**
 * The environment a launched teammate gets (every launcher but `local`, which inherits the
 * leader's): only what pi and its model provider need, never the rest of the leader's variables.
 */

/** Passed by exact name: the basics of a shell and of Node's network stack. */
export const PASSED_ENV_NAMES: readonly string[] = [
  "PATH", "HOME", "USER", "LANG", "TERM", "TZ", "TMPDIR",
  "HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY", "http_proxy", "https_proxy", "no_proxy", "NODE_EXTRA_CA_CERTS",
  // Provider credentials without a common prefix or suffix (Pi's docs/providers.md).
  "HF_TOKEN", "COPILOT_GITHUB_TOKEN",
];

/**
 * Passed by prefix: `PI_` (Pi's own configuration: PI_CODING_AGENT_DIR, PI_OFFLINE, ...), `LC_`
 * (locale), and the providers whose configuration spans several variables in Pi's
 * docs/providers.md (Anthropic's OAuth and federation variables, OpenAI, Azure OpenAI, Amazon
 * Bedrock's AWS_*, Google Vertex's GOOGLE_* and GCLOUD_PROJECT, Cloudflare).
 */
export const PASSED_ENV_PREFIXES: readonly string[] = ["PI_", "LC_", "ANTHROPIC_", "OPENAI_", "AZURE_", "AWS_", "GOOGLE_", "GCLOUD_", "CLOUDFLARE_"];

/** Passed by suffix: every provider's primary key in Pi's docs/providers.md is `<PROVIDER>_API_KEY`. */
export const PASSED_ENV_SUFFIXES: readonly string[] = ["_API_KEY"];

/**
 * True when a launched teammate gets the variable `name`: a name in {@link PASSED_ENV_NAMES}, a
 * {@link PASSED_ENV_PREFIXES} prefix, a {@link PASSED_ENV_SUFFIXES} suffix, or one of `extra`
 * (`piTeams.env` of the user's settings). Pure.
 */
export function isPassedEnvName(name: string, extra: readonly string[] = []): boolean {
  return (
    PASSED_ENV_NAMES.includes(name) ||
    extra.includes(name) ||
    PASSED_ENV_PREFIXES.some((p) => name.startsWith(p)) ||
    PASSED_ENV_SUFFIXES.some((s) => name.endsWith(s))
  );
}

/**
 * The leader's variables a launched teammate gets (see {@link isPassedEnvName}), in name order.
 * Pure; `undefined` values are dropped.
 * @param base the leader's environment.
 * @param extra more names to pass (`piTeams.env`).
 */
export function filterLaunchEnv(base: Readonly<Record<string, string | undefined>>, extra: readonly string[] = []): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of Object.keys(base).sort()) {
    const value = base[name];
    if (value !== undefined && isPassedEnvName(name, extra)) out[name] = value;
  }
  return out;
}
