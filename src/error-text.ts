/** The message of a caught `Error`, else `String(value)`: one line for notes and error messages. Never throws. */
export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
