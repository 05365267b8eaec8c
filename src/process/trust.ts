/**
 * Project trust for child processes. Pure.
 */

/**
 * The pi CLI flag that gives a teammate or verify reviewer exactly its leader's project trust.
 *
 * A child never has more trust than its leader: it inherits the leader's decision, which the
 * caller reads with `ctx.isProjectTrusted()` at spawn time (that reflects `-a`/`-na` on the
 * leader's command line, an interactive answer to Pi's trust prompt, and `/trust`). The flag is
 * always passed, never left out, so a child cannot fall back to a saved decision or a prompt of
 * its own. In Pi 1.6.0 `pi --help` lists `--approve, -a` ("Trust project-local files for this
 * run") and `--no-approve, -na` ("Ignore project-local files for this run").
 *
 * @param trusted the leader's `ctx.isProjectTrusted()`.
 * @returns `-a` when trusted, `-na` otherwise.
 */
export function trustFlag(trusted: boolean): "-a" | "-na" {
  return trusted ? "-a" : "-na";
}
