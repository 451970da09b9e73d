/**
 * Runs vault operations in a fresh process and prints one JSON line per operation, then
 * {"done": true}. libsecret reads DBUS_SESSION_BUS_ADDRESS when it first connects, so the
 * keychain-unavailable tests give this process the environment they want to try.
 *
 *   node --import tsx test/support/vault-probe.ts <dataDir> <timeoutMs> <op>...   (op: save|load|clear)
 */
import { KeytarVault } from '../../src-main/core/vault/keytar-vault';
import { sampleAccount } from './vault-fixtures';

/** One line of the probe's output. */
export interface ProbeLine {
  op: string;
  ok: boolean;
  loaded?: 'account' | 'nothing';
  error?: { name: string; code: unknown; message: string };
  ms: number;
}

const [dataDir, timeoutMs, ...ops] = process.argv.slice(2);
if (dataDir === undefined || timeoutMs === undefined) {
  throw new Error('usage: vault-probe.ts <dataDir> <timeoutMs> <op>...');
}
const vault = new KeytarVault({ dataDir, timeoutMs: Number(timeoutMs) });

for (const op of ops) {
  const started = performance.now();
  const line: ProbeLine = { op, ok: true, ms: 0 };
  try {
    if (op === 'save') await vault.save(sampleAccount());
    else if (op === 'load') line.loaded = (await vault.load()) ? 'account' : 'nothing';
    else if (op === 'clear') await vault.clear();
    else throw new Error(`unknown op ${op}`);
  } catch (error) {
    const { name, message } = error instanceof Error ? error : new Error(String(error));
    line.ok = false;
    line.error = { name, code: (error as { code?: unknown }).code, message };
  }
  line.ms = Math.round(performance.now() - started);
  console.log(JSON.stringify(line));
}
// A keychain call stuck in a thread-pool thread keeps this process alive (even process.exit
// waits for it); the test kills the process once it has read this line.
console.log(JSON.stringify({ done: true }));
