/**
 * A per-test stack of cleanups: each resource is registered as soon as it exists, and after each
 * test the stack runs in reverse order (the last acquired goes first), so nothing acquired before a
 * failure is left behind.
 */
import { afterEach } from "vitest";

/** Registers the afterEach hook of this test file; returns `push`, which adds one cleanup. */
export function useCleanups(): (cleanup: () => unknown) => void {
  const stack: (() => unknown)[] = [];
  afterEach(async () => {
    for (const c of stack.splice(0).reverse()) await c();
  });
  return (cleanup) => void stack.push(cleanup);
}
