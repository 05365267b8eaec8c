/**
 * The one error class of this package. Callers branch on `code`, never on message text.
 * Messages say what failed, where, what was expected and what to do next.
 */
export type TeamErrorCode =
  | "invalid_input"
  | "not_found"
  | "limit_reached"
  | "illegal_transition"
  | "child_exited"
  | "protocol_violation"
  | "timeout"
  | "io_error"
  | "locked";

export class TeamError extends Error {
  override readonly name = "TeamError";
  readonly code: TeamErrorCode;

  constructor(code: TeamErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}

/**
 * The default branch of an exhaustive switch: the compiler proves it unreachable (`x: never`),
 * and if a value the types did not foresee arrives anyway, it throws
 * `TeamError("invalid_input", "unknown <what> <x as JSON>")`.
 */
export function assertNever(x: never, what: string): never {
  throw new TeamError("invalid_input", `unknown ${what} ${JSON.stringify(x)}`);
}
