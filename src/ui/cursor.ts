/**
 * The selection of a console list and the top of its visible window (R61). The selection keeps
 * its row by key when rows move between snapshots (a teammate name, a task id); when its row is
 * gone it stays at the same position, clamped. The list is windowed here, not by `ScrollView`
 * (which does not scroll inside `custom()`, pi-tui.md §2).
 */
export class ListCursor {
  private key: string | undefined;
  private index = 0;
  private top = 0;

  /** The selected index in `keys` after re-finding the selected key; -1 for an empty list. */
  sync(keys: readonly string[]): number {
    if (keys.length === 0) return -1;
    const found = this.key === undefined ? -1 : keys.indexOf(this.key);
    this.index = found >= 0 ? found : clamp(this.index, 0, keys.length - 1);
    this.key = keys[this.index];
    return this.index;
  }

  /** Moves the selection by `delta` rows (negative is up), clamped to the list. */
  move(delta: number, keys: readonly string[]): void {
    if (keys.length === 0) return;
    this.index = clamp(this.sync(keys) + delta, 0, keys.length - 1);
    this.key = keys[this.index];
  }

  /** Selects the first (`"home"`) or last (`"end"`) row. */
  jump(to: "home" | "end", keys: readonly string[]): void {
    this.move(to === "home" ? -keys.length : keys.length, keys);
  }

  /** Forgets the selection: the first row is selected next. */
  reset(): void {
    this.key = undefined;
    this.index = 0;
    this.top = 0;
  }

  /**
   * The first visible row of a window of `height` rows over `count` rows that shows the
   * selection; scrolls only as far as needed.
   */
  windowTop(height: number, count: number): number {
    if (height <= 0 || count <= 0) return 0;
    if (this.index < this.top) this.top = this.index;
    if (this.index >= this.top + height) this.top = this.index - height + 1;
    this.top = clamp(this.top, 0, Math.max(0, count - height));
    return this.top;
  }
}

/** `n` limited to `lo..hi` (hi wins when hi < lo). */
export function clamp(n: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, n));
}
