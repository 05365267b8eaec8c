/**
 * The console's transcript of one teammate (issue 20, the Teammates page's `t`): the lines come
 * from an async fetch (the session file, read by the lead), so the view holds the last ones and
 * fetches again on request, one read at a time. It is shown as a detail row: the console scrolls it.
 */
import { errorText } from "../error-text.ts";
import { oneLine } from "./format.ts";
import { isActive } from "../team/lifecycle-state.ts";
import type { TeammateRow } from "./console-model.ts";
import type { PageRow } from "./page.ts";

export class TranscriptView {
  readonly name: string;
  /** The detail row the console shows: a title, then the transcript. Its lines change as reads land. */
  readonly row: PageRow;
  /** The console keeps the view at the end while this is set (it is, until the user scrolls up). */
  follow = true;
  #lines: readonly string[] = ["(reading its session file…)"];
  #reading = false;
  #again = false;
  #wasActive = false;
  readonly #fetch: (name: string) => Promise<readonly string[]>;
  readonly #changed: () => void;

  /** `changed` is called after each read lands (a redraw). */
  constructor(name: string, fetch: (name: string) => Promise<readonly string[]>, changed: () => void) {
    this.name = name;
    this.#fetch = fetch;
    this.#changed = changed;
    this.row = { key: `transcript:${name}`, cells: [], detail: () => [`Transcript of @${name}`, ...this.#lines] };
    this.reload();
  }

  /**
   * On a console refresh: reads again while its teammate is starting or working, and once more
   * when it stops being so (its last reply is written just before it goes idle); an idle or
   * stopped one's does not change.
   */
  refresh(teammates: readonly Pick<TeammateRow, "name" | "status">[]): void {
    const status = teammates.find((t) => t.name === this.name)?.status;
    const active = status !== undefined && isActive(status);
    if (active || this.#wasActive) this.reload();
    this.#wasActive = active;
  }

  /** Reads it again; a read already running is followed by one more, never by several. Never rejects. */
  reload(): void {
    if (this.#reading) {
      this.#again = true;
      return;
    }
    this.#reading = true;
    this.#fetch(this.name)
      .then((lines) => (this.#lines = lines.length > 0 ? lines : ["(no messages yet)"]), (error: unknown) => (this.#lines = [`(could not read the transcript: ${oneLine(errorText(error))})`]))
      .finally(() => {
        this.#reading = false;
        this.#changed();
        if (this.#again) {
          this.#again = false;
          this.reload();
        }
      });
  }
}
