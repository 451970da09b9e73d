/**
 * The activation handoff sealed to the desktop: HPKE (RFC 9180, base mode) with X25519,
 * HKDF-SHA256 and AES-128-GCM, through the `@hpke/core` package. The desktop makes an ephemeral
 * key pair per attempt and gives the relay only the public key; the relay seals the platform's
 * tokens to it, so what sits in Redis or passes through another node is ciphertext only.
 */
import type { CipherSuite } from '@hpke/core';
import { HandoffContent, type SealedHandoff } from './relay-protocol';

let made: Promise<CipherSuite> | undefined;
/**
 * The suite, with @hpke/core loaded when an activation through a relay first needs it: a start
 * (and every user without a relay) never compiles its 27 KB.
 */
const cipherSuite = (): Promise<CipherSuite> =>
  (made ??= import('@hpke/core').then(
    ({ Aes128Gcm, CipherSuite, DhkemX25519HkdfSha256, HkdfSha256 }) =>
      new CipherSuite({
        kem: new DhkemX25519HkdfSha256(),
        kdf: new HkdfSha256(),
        aead: new Aes128Gcm(),
      }),
  ));

/** Binds the ciphertext to its purpose and to the confirmation key's name. */
const info = (keySha256: string) => new TextEncoder().encode(`callbar relay handoff ${keySha256}`);

const toBase64url = (bytes: ArrayBuffer) => Buffer.from(bytes).toString('base64url');
const fromBase64url = (text: string) => {
  const buffer = Buffer.from(text, 'base64url');
  return buffer.buffer.slice(buffer.byteOffset, buffer.byteOffset + buffer.byteLength);
};

/** A fresh key pair for one activation attempt, and its public key as base64url. */
export async function handoffKeyPair(): Promise<{ keyPair: CryptoKeyPair; publicKey: string }> {
  const suite = await cipherSuite();
  const keyPair = await suite.kem.generateKeyPair();
  return { keyPair, publicKey: toBase64url(await suite.kem.serializePublicKey(keyPair.publicKey)) };
}

/** Seals `content` to `publicKey` (base64url) for the attempt named `keySha256`. */
export async function sealHandoff(
  publicKey: string,
  keySha256: string,
  content: HandoffContent,
): Promise<SealedHandoff> {
  const suite = await cipherSuite();
  const recipientPublicKey = await suite.kem.deserializePublicKey(fromBase64url(publicKey));
  const { enc, ct } = await suite.seal(
    { recipientPublicKey, info: info(keySha256) },
    new TextEncoder().encode(JSON.stringify(content)).buffer,
  );
  return { enc: toBase64url(enc), ciphertext: toBase64url(ct) };
}

/** Opens a handoff sealed to `keyPair`; throws when it was not (or was altered). */
export async function openHandoff(
  keyPair: CryptoKeyPair,
  keySha256: string,
  sealed: SealedHandoff,
): Promise<HandoffContent> {
  const suite = await cipherSuite();
  const plain = await suite.open(
    { recipientKey: keyPair, enc: fromBase64url(sealed.enc), info: info(keySha256) },
    fromBase64url(sealed.ciphertext),
  );
  return HandoffContent.parse(JSON.parse(new TextDecoder().decode(plain)));
}
