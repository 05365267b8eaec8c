/**
 * The `piTeams` key of the user's Pi settings (`<agent dir>/settings.json`): how launchers start
 * a teammate's pi. Only the user's file is read, never a project's `.pi/settings.json`: a project
 * must not be able to choose the commands this package runs on the user's machine.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { Type, type Static } from "typebox";
import { Value } from "typebox/value";
import { TeamError } from "../errors.ts";
import { isRecord } from "../is-record.ts";
import { BUILTIN_LAUNCHERS, LAUNCHER_NAME_PATTERN } from "./launcher.ts";

const Argv = Type.Array(Type.String({ minLength: 1 }), { minItems: 1 });
const Path = Type.String({ minLength: 1 });
const closed = { additionalProperties: false } as const;

/** Schema of `piTeams` (typebox). Every key is optional; unknown keys are refused. */
export const LaunchSettingsSchema = Type.Object(
  {
    env: Type.Optional(Type.Array(Type.String({ pattern: "^[A-Za-z_][A-Za-z0-9_]*$" }))),
    ssh: Type.Optional(Type.Object({ options: Type.Optional(Type.Array(Type.String())), pi: Type.Optional(Argv), package: Type.Optional(Path) }, closed)),
    podman: Type.Optional(Type.Object({ image: Type.Optional(Path), rootfs: Type.Optional(Path), pi: Type.Optional(Argv), package: Type.Optional(Path) }, closed)),
    docker: Type.Optional(Type.Object({ image: Type.Optional(Path), pi: Type.Optional(Argv), package: Type.Optional(Path) }, closed)),
    launchers: Type.Optional(Type.Record(Type.String(), Type.Object({ prefix: Argv, pi: Type.Optional(Argv), package: Type.Optional(Path) }, closed))),
  },
  closed,
);

/** A valid `piTeams` value. */
export type LaunchSettings = Static<typeof LaunchSettingsSchema>;

/** What each field accepts, by its last name in the path, for error messages. */
const ACCEPTED: Readonly<Record<string, string>> = {
  piTeams: "an object with any of the keys env, ssh, podman, docker, launchers",
  env: 'a list of environment variable names passed to launched teammates, for example ["EXTRA_VAR"]',
  ssh: "an object with any of the keys options, pi, package",
  podman: "an object with any of the keys image, rootfs, pi, package",
  docker: "an object with any of the keys image, pi, package",
  launchers: 'an object of launcher names, each {"prefix": [...], "pi"?: [...], "package"?: "..."}',
  launcher: 'an object {"prefix": [...], "pi"?: [...], "package"?: "..."}',
  options: 'a list of strings passed to ssh before the host, for example ["-p", "2222", "-i", "/k/id"]',
  pi: 'a non-empty list of non-empty strings: the pi command, for example ["pi"] or ["/usr/bin/node", "/opt/pi/cli.js"]',
  prefix: 'a non-empty list of non-empty strings: the command the teammate\'s pi follows, for example ["kubectl", "exec", "-i", "pi-box", "--"]',
  package: "a non-empty string: the path of this package where the teammate's pi runs",
  image: 'a non-empty string: an image name with pi installed, for example "localhost/pi"',
  rootfs: "a non-empty string: the directory of an unpacked root file system with pi installed",
};

/** Settings as read: the file, and its `piTeams` value (`{}` when the file or the key is absent). */
export interface LaunchSettingsFile {
  /** Absolute path of the settings file, named in every error about it. */
  path: string;
  settings: LaunchSettings;
}

/**
 * Reads `<agentDir>/settings.json` and validates its `piTeams` key. Fresh on every call (a spawn
 * reads it once). A missing file or key gives `{}`.
 * @param agentDir Pi's agent dir (`PI_CODING_AGENT_DIR`, else `~/.pi/agent`).
 * @throws TeamError `io_error` when the file exists but cannot be read; `invalid_input` when it is
 *   not JSON, or `piTeams` is invalid (the message names the file, the field path, the value and
 *   what is accepted).
 */
export async function readLaunchSettings(agentDir: string): Promise<LaunchSettingsFile> {
  const path = join(agentDir, "settings.json");
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error: unknown) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { path, settings: {} };
    throw new TeamError("io_error", `cannot read the Pi settings file ${path}: ${(error as Error).message}`, { cause: error });
  }
  let data: unknown;
  try {
    data = JSON.parse(text) as unknown;
  } catch (error: unknown) {
    throw new TeamError("invalid_input", `the Pi settings file ${path} is not valid JSON (${(error as Error).message}); fix it to use launchers.`, { cause: error });
  }
  const value = isRecord(data) ? data.piTeams : undefined;
  return { path, settings: checkLaunchSettings(value, path) };
}

/**
 * Validates a `piTeams` value. Pure. `undefined` gives `{}`.
 * @throws TeamError `invalid_input` naming `path`, the field (e.g. `piTeams.ssh.options[1]`), the
 *   value and what is accepted; also for a `launchers` name that is not a valid name or is a
 *   built-in launcher's name.
 */
export function checkLaunchSettings(value: unknown, path: string): LaunchSettings {
  if (value === undefined) return {};
  const fail = (field: string, got: unknown, problem: string, accepted: string): never => {
    throw new TeamError("invalid_input", `${path}: ${field} has value ${preview(got)}, which ${problem}; accepted: ${accepted}.`);
  };
  const first = [...Value.Errors(LaunchSettingsSchema, value)].find((e) => e.keyword !== "boolean") ?? [...Value.Errors(LaunchSettingsSchema, value)][0];
  if (first) {
    const segments = first.instancePath.split("/").slice(1).map(decodePointer);
    const got = segments.reduce<unknown>((at, key) => (typeof at === "object" && at !== null && Object.hasOwn(at, key) ? (at as Record<string, unknown>)[key] : undefined), value);
    const field = fieldPath(segments);
    const params = first.params as { additionalProperties?: string[]; requiredProperties?: string[] };
    if (first.keyword === "additionalProperties") {
      const keys = params.additionalProperties ?? [];
      return fail(field, got, `has unknown key${keys.length === 1 ? "" : "s"} ${keys.join(", ")}`, acceptedFor(segments));
    }
    if (first.keyword === "required") return fail(field, got, `lacks ${(params.requiredProperties ?? []).join(", ")}`, acceptedFor(segments));
    return fail(field, got, "is not accepted", acceptedFor(segments));
  }
  const settings = value as LaunchSettings;
  const builtIn: readonly string[] = BUILTIN_LAUNCHERS;
  for (const name of Object.keys(settings.launchers ?? {})) {
    if (builtIn.includes(name) || name === "ssh" || name.startsWith("ssh:") || !new RegExp(LAUNCHER_NAME_PATTERN).test(name)) {
      fail(`piTeams.launchers[${JSON.stringify(name)}]`, settings.launchers?.[name], "has a name that cannot be used",
        `a name starting with a letter, then letters, digits, ".", "_", "-" (at most 64), other than the built-in ${BUILTIN_LAUNCHERS.join(", ")}, ssh`);
    }
  }
  return settings;
}

/** `["ssh", "options", "1"]` → `piTeams.ssh.options[1]`; launcher names in brackets. */
function fieldPath(segments: string[]): string {
  let out = "piTeams";
  segments.forEach((s, i) => {
    if (/^\d+$/.test(s)) out += `[${s}]`;
    else if (i === 1 && segments[0] === "launchers") out += `[${JSON.stringify(s)}]`;
    else out += `.${s}`;
  });
  return out;
}

/** The accepted text for the field at `segments` (its last non-index name; list items name the list). */
function acceptedFor(segments: string[]): string {
  const names = segments.filter((s) => !/^\d+$/.test(s));
  if (names.length === 0) return ACCEPTED.piTeams ?? "";
  if (names.length === 2 && names[0] === "launchers") return ACCEPTED.launcher ?? "";
  const last = names[names.length - 1] ?? "";
  // Own properties only: the names come from the user's file ("constructor", "toString", ...).
  return (Object.hasOwn(ACCEPTED, last) ? ACCEPTED[last] : undefined) ?? ACCEPTED.piTeams ?? "";
}

function decodePointer(segment: string): string {
  return segment.replaceAll("~1", "/").replaceAll("~0", "~");
}

function preview(value: unknown): string {
  const text = value === undefined ? "undefined" : (JSON.stringify(value) ?? String(value));
  return text.length > 120 ? `${text.slice(0, 120)}…` : text;
}
