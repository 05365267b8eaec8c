/**
 * The one size limit of a message, and the bound of mail batched into one prompt
 * (references/mail-format.md "Limits"). Every message body is measured the same way, whatever
 * path it takes: a kickoff, a leader message steered or held for the next wake, a report, peer
 * mail. The measure is the body's size as a JSON string (UTF-8 bytes, escapes included), so any
 * message that passes fits in one mailbox line (64 KiB) with its envelope.
 */

/** Longest message body, in bytes of its JSON string form (48 KiB). */
export const MESSAGE_MAX_BYTES = 48 * 1024;

/** At most this many pieces of mail go into one wake or steer prompt; the rest wait for the next. */
export const MAIL_BATCH_MAX_MESSAGES = 500;

/** At most this many bytes of mail bodies go into one prompt (the first piece always goes). */
export const MAIL_BATCH_MAX_BYTES = 4 * MESSAGE_MAX_BYTES;

/** Size of `body` as {@link MESSAGE_MAX_BYTES} measures it, in bytes. */
export function messageBytes(body: string): number {
  return Buffer.byteLength(JSON.stringify(body), "utf8");
}

/**
 * Why `body` is too long for a message, naming the tool, the field, the size and the limit; or
 * undefined when it fits. Nothing is sent when it is too long.
 */
export function messageSizeProblem(tool: string, field: string, body: string): string | undefined {
  const bytes = messageBytes(body);
  if (bytes <= MESSAGE_MAX_BYTES) return undefined;
  return `${tool}: ${field} is ${bytes} bytes (as JSON, UTF-8); every message may be at most ${MESSAGE_MAX_BYTES} bytes (48 KiB). Nothing was sent: shorten it, or put the detail in a file and send its path.`;
}

/**
 * The first pieces of `mail` for one prompt: up to {@link MAIL_BATCH_MAX_MESSAGES} pieces and
 * {@link MAIL_BATCH_MAX_BYTES} bytes of bodies, never fewer than one. Pure; returns how many.
 */
export function mailBatchSize(mail: readonly { body: string }[]): number {
  let bytes = 0;
  let n = 0;
  for (const m of mail) {
    bytes += messageBytes(m.body);
    if (n > 0 && (n >= MAIL_BATCH_MAX_MESSAGES || bytes > MAIL_BATCH_MAX_BYTES)) break;
    n += 1;
  }
  return n;
}
