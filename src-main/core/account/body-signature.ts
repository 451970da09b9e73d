/**
 * Signed deliveries: a platform that signs the body of each call to the receiver with an HMAC
 * (of the raw body bytes, with a secret shared with the integrator) in a header of its own. Set
 * with CALLBAR_RECEIVER_HMAC, `header=X-Signature;algorithm=sha256;encoding=hex` (`algorithm`
 * sha256 or sha1, `encoding` hex or base64, optional `prefix` such as `sha256=` written before the
 * digest), and the secret in CALLBAR_RECEIVER_HMAC_SECRET. The secret stays in the process's
 * memory: Callbar never writes it to a file, the log or an error message. The signature is
 * compared in constant time (secret-compare.ts).
 */
import { createHmac } from 'node:crypto';
import { CallbarError } from '../errors';
import { secretsEqual } from '../secret-compare';

export interface BodySignature {
  /** The header carrying the signature (any case). */
  header: string;
  algorithm: 'sha256' | 'sha1';
  encoding: 'hex' | 'base64';
  /** Written before the digest, e.g. `sha256=`; empty when none. */
  prefix: string;
  secret: string;
}

const SETTING = 'CALLBAR_RECEIVER_HMAC';
const SECRET = 'CALLBAR_RECEIVER_HMAC_SECRET';

function invalid(why: string): CallbarError {
  return new CallbarError(
    'settings_invalid',
    `${SETTING} ${why}: it must look like "header=X-Signature;algorithm=sha256;encoding=hex" (algorithm sha256 or sha1, encoding hex or base64, optional prefix=…).`,
  );
}

/**
 * The signature the platform's calls must carry, from the two variables; undefined when
 * CALLBAR_RECEIVER_HMAC is unset. A setting without its secret (or a secret without the
 * setting) is refused: a half-configured check would let everything through or refuse all.
 */
export function parseBodySignature(
  setting: string | undefined,
  secret: string | undefined,
): BodySignature | undefined {
  if (!setting?.trim()) {
    if (secret) {
      throw new CallbarError(
        'settings_invalid',
        `${SECRET} is set but ${SETTING} is not: set ${SETTING} too (which header, which algorithm).`,
      );
    }
    return undefined;
  }
  const fields = new Map<string, string>();
  for (const part of setting.split(';')) {
    if (!part.trim()) continue;
    const equals = part.indexOf('=');
    if (equals <= 0) throw invalid(`has "${part.trim().slice(0, 40)}" without a value`);
    const name = part.slice(0, equals).trim().toLowerCase();
    if (!['header', 'algorithm', 'encoding', 'prefix'].includes(name)) {
      throw invalid(`names an unknown field "${name.slice(0, 40)}"`);
    }
    fields.set(name, part.slice(equals + 1).trim());
  }
  const header = fields.get('header') ?? '';
  if (!/^[A-Za-z0-9-]+$/.test(header)) throw invalid('needs a header name');
  const algorithm = fields.get('algorithm')?.toLowerCase() ?? 'sha256';
  if (algorithm !== 'sha256' && algorithm !== 'sha1') throw invalid('has an unknown algorithm');
  const encoding = fields.get('encoding')?.toLowerCase() ?? 'hex';
  if (encoding !== 'hex' && encoding !== 'base64') throw invalid('has an unknown encoding');
  if (!secret) {
    throw new CallbarError(
      'settings_invalid',
      `${SETTING} is set but ${SECRET} is empty: set the secret the platform signs with.`,
    );
  }
  return { header, algorithm, encoding, prefix: fields.get('prefix') ?? '', secret };
}

/** Whether `given` (the header's value) is the signature of `body`, compared in constant time. */
export function signatureMatches(
  signature: BodySignature,
  body: Buffer,
  given: string | undefined,
): boolean {
  const digest = createHmac(signature.algorithm, signature.secret)
    .update(body)
    .digest(signature.encoding);
  // Hex is case-insensitive; base64 is not.
  const normalise = (value: string) => (signature.encoding === 'hex' ? value.toLowerCase() : value);
  return secretsEqual(normalise((given ?? '').trim()), normalise(`${signature.prefix}${digest}`));
}
