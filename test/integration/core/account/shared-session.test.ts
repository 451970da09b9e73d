/**
 * One profile, many processes: real `callbar` CLI processes share a profile and its keychain
 * entry (the real Secret Service, private in CI) against the simulator over HTTP.
 *
 * - N processes started together after the access token expired (on the simulator's clock, so
 *   each gets a 401 and wants to refresh): exactly one refresh per round at the simulator, every
 *   process succeeds, the session survives, round after round.
 * - A refresh whose answer is lost, or malformed: the next new process finds the session ended
 *   and says so ("needs-activation"), and so does every process after it, until a new connect.
 * - Settings that name another platform: no token, and no refresh, goes there.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import type { RunningSimulator } from '../../../../simulator/index';
import { openVault } from '../../../../src-main/core/vault/keytar-vault';
import { runCallbar, runCallbarInProcess } from '../../../support/cli-process';
import { freePort } from '../../../support/free-port';
import {
  control,
  countRequests,
  describeEachProfile,
  issuedSession,
  profileEnv,
  PROFILES,
  startSim,
} from '../../../support/sim-harness';

const TOKEN_PATH = '/v3/oauth/token/';
const PROCESSES = Number(process.env.CALLBAR_TEST_PROCESSES ?? 8);
const ROUNDS = Number(process.env.CALLBAR_TEST_ROUNDS ?? 20);

describeEachProfile('one profile shared by several callbar processes', (simProfile) => {
  let sim: RunningSimulator;
  let env: NodeJS.ProcessEnv;
  let dataDir: string;

  beforeAll(async () => {
    sim = await startSim({ profile: simProfile });
    dataDir = mkdtempSync(join(tmpdir(), 'callbar-shared-'));
    env = profileEnv(sim, dataDir, await freePort());
  });
  afterAll(async () => {
    await openVault({ dataDir }).clear();
    rmSync(dataDir, { recursive: true, force: true });
    await sim.close();
  });
  beforeEach(async () => {
    await control(sim, 'DELETE', 'faults');
    // A session as activation leaves it, stored where every process of the profile finds it.
    await openVault({ dataDir }).save(
      await issuedSession(sim, sim.users[0]!, Date.now() + 24 * 3600_000),
    );
    rmSync(join(dataDir, 'session-ended.json'), { force: true });
  });

  /** The simulator's clock moves past the access token's 24 hours. */
  const expireAccessToken = () => control(sim, 'POST', 'clock/advance', { seconds: 25 * 3600 });

  // The token endpoint is the same under every profile: the stress run (minutes on a loaded
  // machine) runs under the first one only.
  it.runIf(simProfile === PROFILES[0])(
    `${PROCESSES} processes started together after expiry, ${ROUNDS} rounds: one refresh per round, all succeed`,
    async () => {
      const refreshesPerRound: number[] = [];
      const started = performance.now();
      for (let round = 0; round < ROUNDS; round++) {
        const before = (await openVault({ dataDir }).load())!;
        await expireAccessToken();
        await control(sim, 'DELETE', 'requests');
        const runs = await Promise.all(
          Array.from({ length: PROCESSES }, (_, index) =>
            runCallbar(
              index % 2 === 0
                ? ['phonebooks', 'list', '--json']
                : ['contacts', 'list', '--json', '--page-size', '5'],
              env,
            ),
          ),
        );
        for (const run of runs) expect(run.code, run.stderr).toBe(0);
        refreshesPerRound.push(await countRequests(sim, 'POST', TOKEN_PATH));
        const after = (await openVault({ dataDir }).load())!;
        expect(after.refresh_token).not.toBe(before.refresh_token);
      }
      const seconds = (performance.now() - started) / 1000;
      console.log(
        `shared session: ${PROCESSES} processes × ${ROUNDS} rounds in ${seconds.toFixed(1)} s; refreshes per round: ${refreshesPerRound.join(',')}`,
      );
      expect(refreshesPerRound).toEqual(Array(ROUNDS).fill(1));
      const status = await runCallbar(['status', '--json'], env);
      expect(status.code).toBe(0);
      expect(JSON.parse(status.stdout)).toMatchObject({ state: 'connected' });
    },
    30 * 60_000,
  );

  for (const [fault, spec] of [
    ['lost (connection reset after the platform processed it)', { reset: true }],
    ['malformed', { malformed: true }],
  ] as const) {
    it(`a refresh answer that is ${fault}: every new process reports that the session ended`, async () => {
      await expireAccessToken();
      await control(sim, 'POST', 'faults', {
        method: 'POST',
        path: TOKEN_PATH,
        when: 'after',
        count: 1,
        ...spec,
      });
      const first = await runCallbar(['phonebooks', 'list', '--json'], env);
      expect(first.code).not.toBe(0);

      // The platform spent the refresh token: the next process finds out, and says what to do.
      const second = await runCallbar(['phonebooks', 'list'], env);
      expect(second.code).toBe(3);
      expect(second.stderr).toContain('session has ended');
      expect(existsSync(join(dataDir, 'session-ended.json'))).toBe(true);
      expect(await openVault({ dataDir }).load()).toBeUndefined();

      // Every later process says so too (not "not connected yet", as on first run).
      const status = await runCallbarInProcess(['status', '--json'], env);
      expect(status.code).toBe(3);
      expect(JSON.parse(status.stdout)).toMatchObject({
        state: 'needs-activation',
        tenant_id: sim.tenant_id,
        user_extension: sim.users[0]!.extension,
        message: expect.stringContaining('Connect Callbar again') as unknown,
      });
      // The marker holds no secret.
      const marker = readFileSync(join(dataDir, 'session-ended.json'), 'utf8');
      expect(Object.keys(JSON.parse(marker) as object).sort()).toEqual([
        'base_url',
        'ended_at',
        'tenant_id',
        'user_extension',
        'version',
      ]);

      // Forgetting the session clears the marker: back to "not connected".
      expect((await runCallbarInProcess(['deactivate-local'], env)).code).toBe(0);
      const forgotten = await runCallbarInProcess(['status', '--json'], env);
      expect(JSON.parse(forgotten.stdout)).toMatchObject({ state: 'not-connected' });
      expect(JSON.parse(forgotten.stdout)).not.toHaveProperty('tenant_id');
    }, 120_000);
  }

  it('settings that name another platform: needs-activation, and no token goes there', async () => {
    const stored = (await openVault({ dataDir }).load())!;
    const seen: { method?: string; url?: string; headers: IncomingHttpHeaders; body: string }[] =
      [];
    const other = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        seen.push({ method: request.method, url: request.url, headers: request.headers, body });
        response.writeHead(401, { 'content-type': 'application/json' });
        response.end('{"detail":"Invalid token."}');
      });
    });
    await new Promise<void>((ready) => other.listen(0, '127.0.0.1', ready));
    const otherUrl = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
    try {
      await expireAccessToken();
      await control(sim, 'DELETE', 'requests');
      const elsewhere = { ...env, CALLBAR_BASE_URL: otherUrl };
      const list = await runCallbarInProcess(['phonebooks', 'list'], elsewhere);
      expect(list.code).toBe(3);
      expect(list.stderr).toContain(otherUrl);
      expect(list.stderr).toContain(sim.base_url);
      const status = await runCallbarInProcess(['status', '--json'], elsewhere);
      expect(JSON.parse(status.stdout)).toMatchObject({
        state: 'needs-activation',
        message: expect.stringContaining(otherUrl) as unknown,
      });
      const everything = JSON.stringify(seen);
      for (const secret of [stored.access_token, stored.refresh_token, stored.client_secret]) {
        expect(everything).not.toContain(secret);
      }
      expect(seen.filter((request) => request.headers.authorization !== undefined)).toEqual([]);
      // Nor was the session spent: back on its own platform it still works.
      expect(await countRequests(sim, 'POST', TOKEN_PATH)).toBe(0);
      expect((await openVault({ dataDir }).load())!.refresh_token).toBe(stored.refresh_token);
      expect((await runCallbarInProcess(['phonebooks', 'list', '--json'], env)).code).toBe(0);
    } finally {
      other.close();
    }
  }, 120_000);
});
