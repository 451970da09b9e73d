/**
 * The one-time connect link in relay mode, as the loopback receiver's `/connect/<nonce>`: the
 * browser is started with `https://relay…/connect/<nonce>`, never with the portal link itself
 * (a command line is readable by every local user, and the portal link holds the confirmation
 * key). The relay keeps the portal link sealed under a key derived from the nonce (AES-256-GCM,
 * HKDF-SHA256), named by the nonce's SHA-256, so what sits in Redis opens only with the address
 * the browser was given. The first use redirects to the portal; a second use ends the attempt.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { secretFingerprint } from '../secret-compare';

/** The path of a connect link at the relay (`/connect/<nonce>`). */
export const CONNECT_PATH = '/connect/';

/** A nonce: 256 random bits, base64url. */
export const CONNECT_NONCE = /^[A-Za-z0-9_-]{43}$/;

const key = (nonce: string) =>
  Buffer.from(hkdfSync('sha256', nonce, '', 'callbar relay connect link', 32));

/** A fresh connect link for `portalLink`: the nonce (for the browser), its name and the seal. */
export function sealConnectLink(portalLink: string): {
  nonce: string;
  name: string;
  sealed: string;
} {
  const nonce = randomBytes(32).toString('base64url');
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key(nonce), iv);
  const ciphertext = Buffer.concat([cipher.update(portalLink, 'utf8'), cipher.final()]);
  const sealed = Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString('base64url');
  return { nonce, name: connectLinkName(nonce), sealed };
}

/** What the relay keeps a connect link under. */
export function connectLinkName(nonce: string): string {
  return secretFingerprint(nonce);
}

/** The portal link sealed for `nonce`; throws when it does not open with it. */
export function openConnectLink(nonce: string, sealed: string): string {
  const bytes = Buffer.from(sealed, 'base64url');
  const decipher = createDecipheriv('aes-256-gcm', key(nonce), bytes.subarray(0, 12));
  decipher.setAuthTag(bytes.subarray(12, 28));
  return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8');
}
