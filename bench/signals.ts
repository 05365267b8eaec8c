/**
 * While a benchmark runs, SIGINT or SIGTERM closes its world (every child stopped, temp dir
 * removed) and exits with 130. Returns the function that removes the handlers.
 */
export function closeOnSignal(close: () => Promise<void>): () => void {
  const interrupted = (): void => void close().finally(() => process.exit(130));
  process.once("SIGINT", interrupted).once("SIGTERM", interrupted);
  return () => void process.off("SIGINT", interrupted).off("SIGTERM", interrupted);
}
