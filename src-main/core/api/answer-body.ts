/**
 * An answer's body as text, read with a byte cap before anything parses it: whatever a broken or
 * malicious platform sends (a body without end, a page of megabyte fields), Callbar holds at most
 * the cap in memory for one answer, for at most a bounded time (a body that trickles in is cut).
 */
import { ProtocolError, TimeoutError } from './api-errors';

/** The largest answer accepted from the platform's REST API (a page of 1,000 contacts is ~0.3 MB). */
export const MAX_ANSWER_BYTES = 16 * 1024 * 1024;

/** The time the whole body of an answer may take to arrive once its headers have. */
export const ANSWER_BODY_TIMEOUT_MS = 30_000;

/**
 * The body of `response` as UTF-8 text, refused past `maxBytes` (declared or received) and past
 * `timeoutMs` (a TimeoutError).
 */
export async function readAnswerText(
  response: Response,
  endpoint: string,
  maxBytes: number = MAX_ANSWER_BYTES,
  timeoutMs: number = ANSWER_BODY_TIMEOUT_MS,
): Promise<string> {
  const tooLarge = () =>
    new ProtocolError(endpoint, `the answer is larger than ${describeBytes(maxBytes)}`);
  if (Number(response.headers.get('content-length') ?? 0) > maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    throw tooLarge();
  }
  if (!response.body) return '';
  const reader = response.body.getReader();
  let late = false;
  const timer = setTimeout(() => {
    late = true;
    void reader.cancel().catch(() => undefined);
  }, timeoutMs);
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (late) throw new TimeoutError(endpoint);
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        await reader.cancel().catch(() => undefined);
        throw tooLarge();
      }
      chunks.push(value);
    }
  } finally {
    clearTimeout(timer);
  }
  return Buffer.concat(chunks, size).toString('utf8');
}

function describeBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${bytes / (1024 * 1024)} MiB` : `${bytes / 1024} KiB`;
}
