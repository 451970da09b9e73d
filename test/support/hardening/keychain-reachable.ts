/** Whether this process reaches a Secret Service (the hardening suite runs under with-keyring). */
import keytar from 'keytar';
import { KEYCHAIN_SERVICE } from '../../../src-main/core/vault/keytar-vault';

export const KEYCHAIN_HINT =
  'no usable keychain: run the hardening suite as `npm run test:hardening` (it starts a private keyring through scripts/with-keyring.sh)';

export async function keychainReachable(): Promise<boolean> {
  return keytar.getPassword(KEYCHAIN_SERVICE, 'callbar-hardening-probe').then(
    () => true,
    () => false,
  );
}
