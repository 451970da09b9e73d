/**
 * A platform that answers an expired token with 403 rather than 401 (Django REST framework when
 * its authentication sends no `WWW-Authenticate` challenge: the contract's error body with code
 * `not_authenticated`, `authentication_failed` or `token_not_valid`): the client refreshes once
 * and sends the request once more, as on a 401; any other 403 is a refusal, with no refresh.
 * The simulator's own token expiry (its clock moved past the token's life) and its
 * `authFailure` switch make the 403; the outcome is counted in its request log.
 */
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import { AUTH_FAILURE_ANSWERS } from '../../../../simulator/auth-failure';
import type { RunningSimulator } from '../../../../simulator/index';
import { ApiError } from '../../../../src-main/core/api/api-errors';
import {
  advanceClock,
  control,
  describeEachProfile,
  requestLog,
  startSim,
} from '../../../support/sim-harness';
import { apiFor } from '../../../support/api-rig';

const PHONEBOOKS = '/v3/phonebook/phonebook/';
const CALL_CONTROL = '/v3/call_control/';
const TOKEN_PATH = '/v3/oauth/token/';
/** Longer than an access token lives at the simulator (24 h), shorter than a refresh token. */
const PAST_EXPIRY_S = 25 * 3600;

describeEachProfile('an authentication failure answered with 403', (profile) => {
  let sim: RunningSimulator;
  beforeAll(async () => {
    sim = await startSim({ profile });
  });
  afterAll(() => sim.close());
  beforeEach(async () => {
    await control(sim, 'DELETE', 'faults');
    await control(sim, 'DELETE', 'requests');
  });
  afterEach(async () => {
    await control(sim, 'PATCH', 'config', { authFailure: 'challenge' });
  });

  /** The platform's log of `paths`, as `METHOD path status`. */
  async function logOf(...paths: string[]): Promise<string[]> {
    return (await requestLog(sim))
      .filter((entry) => paths.includes(entry.path))
      .map((entry) => `${entry.method} ${entry.path} ${entry.status}`);
  }

  /** An API whose access token the platform considers expired (Callbar does not know yet). */
  async function expiredAtPlatform() {
    const rig = await apiFor(sim, 0);
    await advanceClock(sim, PAST_EXPIRY_S);
    await control(sim, 'DELETE', 'requests');
    return rig;
  }

  const drfCodes = AUTH_FAILURE_ANSWERS.filter((answer) => answer !== 'challenge');

  it.each(drfCodes)('%s on a read: one refresh, one retry, the answer', async (answer) => {
    await control(sim, 'PATCH', 'config', { authFailure: answer });
    const { api, tokens } = await expiredAtPlatform();
    try {
      const page = await api.phonebooks.listPhonebooks();
      expect(page.count).toBeGreaterThan(0);
      expect(await logOf(PHONEBOOKS, TOKEN_PATH)).toEqual([
        `GET ${PHONEBOOKS} 403`,
        `POST ${TOKEN_PATH} 200`,
        `GET ${PHONEBOOKS} 200`,
      ]);
      expect(tokens.health.kind).toBe('ok');
    } finally {
      tokens.dispose();
    }
  });

  it('403 not_authenticated on a dial: the call is placed once, after the refresh', async () => {
    await control(sim, 'PATCH', 'config', { authFailure: '403-not_authenticated' });
    const { api, tokens } = await expiredAtPlatform();
    const before = (await control<unknown[]>(sim, 'GET', 'calls')).length;
    try {
      await api.calls.clickToDial('+15550104477');
      expect(await logOf(CALL_CONTROL, TOKEN_PATH)).toEqual([
        `POST ${CALL_CONTROL} 403`,
        `POST ${TOKEN_PATH} 200`,
        `POST ${CALL_CONTROL} 202`,
      ]);
      expect((await control<unknown[]>(sim, 'GET', 'calls')).length).toBe(before + 1);
    } finally {
      tokens.dispose();
    }
  });

  it('a 403 of another code is a refusal: no refresh, and it says so', async () => {
    const { api, tokens } = await apiFor(sim, 0);
    await control(sim, 'POST', 'faults', {
      method: 'GET',
      path: PHONEBOOKS,
      status: 403,
      body: {
        type: 'client_error',
        errors: [
          {
            code: 'permission_denied',
            detail: 'You do not have permission to perform this action.',
            attr: null,
          },
        ],
      },
      count: 1,
    });
    try {
      const error = (await api.phonebooks.listPhonebooks().catch((e: unknown) => e)) as ApiError;
      expect(error).toBeInstanceOf(ApiError);
      expect(error).toMatchObject({ status: 403, code: 'forbidden', authenticationFailed: false });
      expect(await logOf(PHONEBOOKS, TOKEN_PATH)).toEqual([`GET ${PHONEBOOKS} 403`]);
    } finally {
      tokens.dispose();
    }
  });

  it('a 403 authentication failure that persists: one refresh, one retry, then it says so', async () => {
    const { api, tokens } = await apiFor(sim, 0);
    await control(sim, 'POST', 'faults', {
      method: 'GET',
      path: PHONEBOOKS,
      status: 403,
      body: {
        type: 'client_error',
        errors: [{ code: 'token_not_valid', detail: 'Token is expired.', attr: null }],
      },
    });
    try {
      const error = (await api.phonebooks.listPhonebooks().catch((e: unknown) => e)) as ApiError;
      expect(error).toBeInstanceOf(ApiError);
      expect(error).toMatchObject({
        status: 403,
        code: 'token_not_valid',
        authenticationFailed: true,
      });
      expect(error.message).toContain('did not accept Callbar’s sign-in (Token is expired.)');
      expect(await logOf(PHONEBOOKS, TOKEN_PATH)).toEqual([
        `GET ${PHONEBOOKS} 403`,
        `POST ${TOKEN_PATH} 200`,
        `GET ${PHONEBOOKS} 403`,
      ]);
    } finally {
      tokens.dispose();
    }
  });
});
