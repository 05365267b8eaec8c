import { TeamError } from "../errors.ts";
import type { LaunchSettings } from "./launch-settings.ts";

/** The launchers this package knows without any settings (`ssh` is `ssh:<host>`). */
export const BUILTIN_LAUNCHERS = ["local", "bwrap", "podman", "docker", "ssh:<host>"] as const;

/**
 * A settings-defined launcher name: starts with a letter, then letters, digits, `.`, `_`, `-`
 * (at most 64 characters), like an agent name.
 */
export const LAUNCHER_NAME_PATTERN = "^[A-Za-z][A-Za-z0-9._-]{0,63}$";

/**
 * The ssh destination after `ssh:`: `[user@]host`, never starting with `-` (it would be read as
 * an ssh option). Ports and keys go into `piTeams.ssh.options`.
 */
const SSH_HOST = "[A-Za-z0-9_][A-Za-z0-9_.@%-]*";

/**
 * Accepted values of the `launcher` frontmatter field: `local`, `bwrap`, `podman`, `docker`,
 * `ssh:<host>`, or the name of a launcher defined in the user's settings. A bare `ssh` is refused
 * (it needs a host).
 */
export const LAUNCHER_FIELD_PATTERN = `^(?!ssh$)(local|bwrap|podman|docker|ssh:${SSH_HOST}|[A-Za-z][A-Za-z0-9._-]{0,63})$`;

/** What the accepted values are, in words, for error messages. */
export const LAUNCHER_FIELD_ACCEPTED =
  '"local" (the default), "bwrap", "podman", "docker", "ssh:<host>" (for example ssh:build-box or ssh:me@10.0.0.5), ' +
  "or the name of a launcher defined under piTeams.launchers in your Pi settings (<agent dir>/settings.json)";

/** An argv list: the pi command or a launcher prefix. */
export type Argv = readonly string[];

/** A launcher with what the user's settings say about it, ready to plan a command line. */
export type ResolvedLauncher =
  | { kind: "local" }
  | { kind: "bwrap" }
  | { kind: "podman" | "docker"; image?: string; rootfs?: string; pi: Argv; package?: string }
  | { kind: "ssh"; host: string; options: Argv; pi?: Argv; package?: string }
  | { kind: "custom"; name: string; prefix: Argv; pi?: Argv; package?: string };

/**
 * Resolves a role's `launcher` value (already checked against {@link LAUNCHER_FIELD_PATTERN})
 * with the user's `piTeams` settings. Pure.
 * @param value the frontmatter value; `undefined` means `local`.
 * @param settingsPath the settings file, named in errors.
 * @throws TeamError `invalid_input` for a name that is neither built in nor defined in
 *   `piTeams.launchers` (listing both and the file), and for a container launcher without an
 *   image (docker) or without exactly one of image / rootfs (podman).
 */
export function resolveLauncher(value: string | undefined, settings: LaunchSettings, settingsPath: string): ResolvedLauncher {
  const v = value ?? "local";
  if (v === "local" || v === "bwrap") return { kind: v };
  if (v.startsWith("ssh:")) {
    const s = settings.ssh ?? {};
    return { kind: "ssh", host: v.slice(4), options: s.options ?? [], ...(s.pi ? { pi: s.pi } : {}), ...(s.package ? { package: s.package } : {}) };
  }
  if (v === "podman" || v === "docker") return resolveEngine(v, settings, settingsPath);
  // Own properties only: a role's `launcher: constructor` must not find Object.prototype's.
  const launchers = settings.launchers ?? {};
  const custom = Object.hasOwn(launchers, v) ? launchers[v] : undefined;
  if (!custom) {
    const defined = Object.keys(settings.launchers ?? {});
    throw new TeamError(
      "invalid_input",
      `launcher ${JSON.stringify(v)} is not built in and not defined in ${settingsPath}. Built-in launchers: ${BUILTIN_LAUNCHERS.join(", ")}. ` +
        `Defined under piTeams.launchers: ${defined.length > 0 ? defined.join(", ") : "none"}. ` +
        `Define it there as {"prefix": ["<command>", ...]} (see docs/launchers.md) or pick a built-in one.`,
    );
  }
  return { kind: "custom", name: v, prefix: custom.prefix, ...(custom.pi ? { pi: custom.pi } : {}), ...(custom.package ? { package: custom.package } : {}) };
}

function resolveEngine(kind: "podman" | "docker", settings: LaunchSettings, settingsPath: string): ResolvedLauncher {
  const s = kind === "podman" ? settings.podman : settings.docker;
  const rootfs = kind === "podman" ? settings.podman?.rootfs : undefined;
  const image = s?.image;
  if (kind === "docker" && !image) {
    throw new TeamError("invalid_input", `launcher "docker" needs an image: set piTeams.docker.image in ${settingsPath} (for example "pi:latest", an image with pi installed; see docs/launchers.md).`);
  }
  if (kind === "podman" && (image === undefined) === (rootfs === undefined)) {
    const both = image !== undefined ? `both are set (image ${JSON.stringify(image)}, rootfs ${JSON.stringify(rootfs)})` : "neither is set";
    throw new TeamError("invalid_input", `launcher "podman" needs exactly one of piTeams.podman.image or piTeams.podman.rootfs in ${settingsPath}; ${both}. See docs/launchers.md.`);
  }
  return { kind, ...(image ? { image } : {}), ...(rootfs ? { rootfs } : {}), pi: s?.pi ?? ["pi"], ...(s?.package ? { package: s.package } : {}) };
}

/** The transport a launcher gives its teammate: only `local` shares the team's files. */
export function launcherTransport(launcher: ResolvedLauncher): "files" | "stream" {
  return launcher.kind === "local" ? "files" : "stream";
}

/**
 * Whether a teammate under the role's `launcher` value runs its pi on this machine, where the
 * team's paths mean what they say (issue 20): `local` and `bwrap` do, so they get a session file
 * and the team notebook; a container, ssh or custom launcher runs pi elsewhere, with
 * `--no-session` and no notebook. Pure.
 */
export function launcherRunsHere(value: string | undefined): boolean {
  return value === undefined || value === "local" || value === "bwrap";
}
