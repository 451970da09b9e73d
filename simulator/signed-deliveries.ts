/**
 * Signed deliveries: a registration may ask the platform to sign the body of every activation,
 * deactivation and webhook call with an HMAC (a legitimate choice the contract leaves open, as
 * many platforms do), sent in a header of its own: `<prefix><digest in hex or base64>`.
 */
import { createHmac } from 'node:crypto';
import { z } from 'zod';

export const DeliverySigning = z.strictObject({
  header: z.string().regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, 'Not a valid header name.'),
  algorithm: z.enum(['sha256', 'sha1']),
  secret: z.string().min(1),
  encoding: z.enum(['hex', 'base64']).default('hex'),
  /** Written before the digest, e.g. `sha256=`. */
  prefix: z
    .string()
    .regex(/^[^\r\n\0]*$/)
    .default(''),
});
export type DeliverySigning = z.output<typeof DeliverySigning>;

/** The signature header of `body`, or none when the registration does not sign. */
export function signatureHeaders(
  signing: DeliverySigning | null | undefined,
  body: Buffer,
): Record<string, string> {
  if (!signing) return {};
  const digest = createHmac(signing.algorithm, signing.secret)
    .update(body)
    .digest(signing.encoding);
  return { [signing.header]: `${signing.prefix}${digest}` };
}
