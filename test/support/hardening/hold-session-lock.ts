/**
 * Takes the profile's session lock and keeps it until killed, printing "held" once it has it: the
 * process a hardening test kills with -9 while it holds the lock.
 *
 *   node --import tsx test/support/hardening/hold-session-lock.ts <dataDir>
 */
import { profileSessionLock } from '../../../src-main/core/account/session-lock';
import { silentLogger } from '../../../src-main/core/log/logger';

const [dataDir] = process.argv.slice(2);
if (!dataDir) throw new Error('usage: hold-session-lock.ts <dataDir>');
await profileSessionLock(dataDir, { log: silentLogger }).hold(
  () =>
    new Promise<never>(() => {
      console.log('held');
      setInterval(() => undefined, 60_000);
    }),
);
