/**
 * The browsers' native messaging framing (Chrome, Edge, Chromium and Firefox alike): each message
 * is a 32-bit length in the machine's byte order, then that many bytes of UTF-8 JSON. The browser
 * may send up to 4 GB in one message; Callbar's host reads at most {@link MAX_REQUEST_BYTES}
 * (its requests are a few dozen bytes) and never buffers more than one message.
 */
import { endianness } from 'node:os';

/** The largest request the host reads (a dial link is at most 512 characters). */
export const MAX_REQUEST_BYTES = 4096;
/** The largest message a browser accepts from a host (Chrome: 1 MB). */
export const MAX_ANSWER_BYTES = 1024 * 1024;

const LITTLE_ENDIAN = endianness() === 'LE';

/** One message as the browser reads it. */
export function encodeMessage(value: unknown): Buffer {
  const body = Buffer.from(JSON.stringify(value), 'utf8');
  if (body.length > MAX_ANSWER_BYTES) throw new RangeError('native message too large');
  const header = Buffer.alloc(4);
  if (LITTLE_ENDIAN) header.writeUInt32LE(body.length);
  else header.writeUInt32BE(body.length);
  return Buffer.concat([header, body]);
}

export type Framed =
  | { kind: 'message'; value: unknown }
  | { kind: 'not-json' }
  /** Larger than allowed: the stream cannot be trusted past it (the host stops). */
  | { kind: 'too-large'; bytes: number };

/**
 * Cuts the bytes from the browser into messages. Feed it chunks; it returns the whole messages
 * they completed. After `too-large` it returns nothing more.
 */
export class MessageFramer {
  #buffered = Buffer.alloc(0);
  #broken = false;
  readonly #limit: number;

  constructor(limit = MAX_REQUEST_BYTES) {
    this.#limit = limit;
  }

  push(chunk: Buffer): Framed[] {
    if (this.#broken) return [];
    this.#buffered = Buffer.concat([this.#buffered, chunk]);
    const framed: Framed[] = [];
    while (this.#buffered.length >= 4) {
      const length = LITTLE_ENDIAN
        ? this.#buffered.readUInt32LE(0)
        : this.#buffered.readUInt32BE(0);
      if (length > this.#limit) {
        this.#broken = true;
        this.#buffered = Buffer.alloc(0);
        framed.push({ kind: 'too-large', bytes: length });
        return framed;
      }
      if (this.#buffered.length < 4 + length) break;
      const body = this.#buffered.subarray(4, 4 + length).toString('utf8');
      this.#buffered = this.#buffered.subarray(4 + length);
      try {
        framed.push({ kind: 'message', value: JSON.parse(body) as unknown });
      } catch {
        framed.push({ kind: 'not-json' });
      }
    }
    return framed;
  }
}
