/**
 * A simulator and a throwaway profile whose real keychain holds its first user's session, for
 * tests of the built `callbar` CLI (run with scripts/with-keyring.sh).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SimulatorOptions } from '../../simulator/index';
import { openVault } from '../../src-main/core/vault/keytar-vault';
import { issuedSession, startSim } from './sim-harness';

export async function signedInCli(options: SimulatorOptions) {
  const sim = await startSim(options);
  const dataDir = mkdtempSync(join(tmpdir(), 'callbar-cli-api-'));
  await openVault({ dataDir }).save(await issuedSession(sim, sim.users[0]!));
  const env: NodeJS.ProcessEnv = { CALLBAR_DATA_DIR: dataDir, CALLBAR_BASE_URL: sim.base_url };
  const close = async () => {
    await openVault({ dataDir }).clear();
    rmSync(dataDir, { recursive: true, force: true });
    await sim.close();
  };
  return { sim, env, close };
}
