import { describe, expect, it } from 'vitest';
import { CallbarError } from '../../../../src-main/core/errors';
import { MemoryVault } from '../../../../src-main/core/vault/memory-vault';
import { VaultUnavailable } from '../../../../src-main/core/vault/vault';
import { containsSecret, sampleAccount } from '../../../support/vault-fixtures';

describe('MemoryVault', () => {
  it('saves, loads and clears like the keychain vault', async () => {
    const vault = new MemoryVault();
    expect(await vault.load()).toBeUndefined();
    await vault.save(sampleAccount());
    expect(await vault.load()).toEqual(sampleAccount());
    await vault.clear();
    expect(await vault.load()).toBeUndefined();
    expect(await new MemoryVault({ account: sampleAccount() }).load()).toEqual(sampleAccount());
  });

  it('stores a copy, not the caller’s object', async () => {
    const vault = new MemoryVault();
    const account = sampleAccount();
    await vault.save(account);
    account.access_token = 'changed';
    expect((await vault.load())?.access_token).toBe(sampleAccount().access_token);
  });

  it('refuses an invalid account and keeps the stored one', async () => {
    const vault = new MemoryVault({ account: sampleAccount() });
    await expect(vault.save(sampleAccount({ access_token: '' }))).rejects.toMatchObject({
      code: 'account_invalid',
      field: 'access_token',
    });
    expect(await vault.load()).toEqual(sampleAccount());
  });

  it('reports a corrupt entry as vault_corrupt without quoting it', async () => {
    const vault = new MemoryVault();
    vault.putRawEntry(JSON.stringify({ ...sampleAccount(), expires_at: 'soon' }));
    const error = await vault.load().catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(CallbarError);
    expect(error).toMatchObject({ code: 'vault_corrupt' });
    expect((error as Error).message).toContain('expires_at');
    expect(containsSecret((error as Error).message)).toBe(false);
  });

  it('fails every operation with VaultUnavailable while unavailable', async () => {
    const vault = new MemoryVault({
      account: sampleAccount(),
      unavailable: 'the keyring is locked',
    });
    for (const operation of [
      () => vault.load(),
      () => vault.save(sampleAccount()),
      () => vault.clear(),
    ]) {
      const error = await operation().catch((reason: unknown) => reason);
      expect(error).toBeInstanceOf(VaultUnavailable);
      expect((error as VaultUnavailable).message).toContain('the keyring is locked');
    }
    vault.unavailable = false;
    expect(await vault.load()).toEqual(sampleAccount());
  });
});
