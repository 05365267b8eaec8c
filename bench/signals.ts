/**
 * While a benchmark runs, SIGINT or SIGTERM closes its world (every child stopped, temp dir
 * removed) and exits with 130. Returns the function that removes the handlers.
 *
 * The handlers stay registered (`on`, not `once`) until removed: execa's child cleanup
 * (signal-exit) re-raises a signal when its own listener is the only one left, which would kill
 * the process before the close had stopped anything. A second signal does not close twice.
 */
export function closeOnSignal(close: () => Promise<void>): () => void {
  let closing = false;
  const interrupted = (): void => {
    if (closing) return;
    closing = true;
    void close().finally(() => process.exit(130));
  };
  process.on("SIGINT", interrupted).on("SIGTERM", interrupted);
  return () => void process.off("SIGINT", interrupted).off("SIGTERM", interrupted);
}
