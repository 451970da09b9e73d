import type { MemoryVault } from '../../src-main/core/vault/memory-vault';
import type { StoredAccount } from '../../src-main/core/vault/stored-account';
import type { Vault } from '../../src-main/core/vault/vault';

/**
 * `inner` (a MemoryVault) whose saves, once `hold()` was called, wait until `release()`: a test
 * stops the session write half-way (closing, a node killed meanwhile) and goes on when it chooses.
 */
export function heldVault(inner: MemoryVault) {
  let held: Promise<void> | undefined;
  let release = () => undefined as void;
  let saveStarted = () => undefined as void;
  let started = Promise.resolve();
  const order: string[] = [];
  const vault: Vault = {
    load: () => inner.load(),
    clear: () => inner.clear(),
    webhookSecret: () => inner.webhookSecret(),
    readRetiredDevices: () => inner.readRetiredDevices(),
    writeRetiredDevices: (text) => inner.writeRetiredDevices(text),
    async save(account: StoredAccount) {
      if (held) {
        saveStarted();
        await held;
      }
      await inner.save(account);
      order.push('saved');
    },
  };
  return {
    vault,
    /** 'saved' for each save done (the test adds its own steps to see their order). */
    order,
    /** Resolves once a save waits (since the last `hold()`). */
    get started() {
      return started;
    },
    hold: () => {
      held = new Promise<void>((resolve) => (release = resolve));
      started = new Promise<void>((resolve) => (saveStarted = resolve));
    },
    /** The save waiting goes on; later ones are not held. */
    release: () => {
      held = undefined;
      release();
    },
  };
}
