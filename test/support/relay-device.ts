/**
 * A device registered straight in a relay's store, as an activation leaves one: tenant `acme`,
 * the extension from the id's last three digits (`device-701` → 701), unless `user` says other
 * ones, and a fresh random credential, of which the store keeps only the SHA-256.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { RelayStore } from '../../relay/relay-store';

export async function addTestDevice(
  store: Pick<RelayStore, 'addDevice'>,
  deviceId: string,
  user: { tenant_id?: string; user_extension?: string } = {},
): Promise<{ device_id: string; credential: string }> {
  const credential = randomBytes(32).toString('base64url');
  await store.addDevice({
    device_id: deviceId,
    tenant_id: user.tenant_id ?? 'acme',
    user_extension: user.user_extension ?? deviceId.slice(-3),
    credential_sha256: createHash('sha256').update(credential).digest('hex'),
    created_at: new Date().toISOString(),
  });
  return { device_id: deviceId, credential };
}
