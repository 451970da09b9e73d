/**
 * The search warm-up (src-main/core/ipc/search-warm-up.ts) through a real Router, so the contract
 * checks each of its requests as a keystroke's: every query is asked once, in the window's page
 * size, one per turn of the event loop (a request queued meanwhile is answered between two of
 * them), and it stops when the core closes.
 */
import { describe, expect, it } from 'vitest';
import { channelNames, type ParsedRequestOf } from '../../../../src-shared/contract';
import { CallbarError } from '../../../../src-main/core/errors';
import { Router, type Handlers } from '../../../../src-main/core/ipc/router';
import { WARM_UP_QUERIES, warmUpSearch } from '../../../../src-main/core/ipc/search-warm-up';
import { silentLogger } from '../../../../src-main/core/log/logger';

/** A router whose directory.search records what reaches it, in order with `order`'s other marks. */
function recordingRouter(order: string[]) {
  const unused = () => {
    throw new CallbarError('not_available', 'Not part of this test.');
  };
  const handlers = {
    ...Object.fromEntries(channelNames.map((channel) => [channel, unused])),
    'directory.search': ({ query, limit }: ParsedRequestOf<'directory.search'>) => {
      order.push(`search ${query} ${limit}`);
      return { query, hits: [] };
    },
  } as unknown as Handlers;
  return new Router(handlers, silentLogger);
}

describe('the search warm-up', () => {
  it('asks each query once, as a keystroke asks it, each answered within the contract', async () => {
    const order: string[] = [];
    const router = recordingRouter(order);
    const answers: unknown[] = [];
    const asked = await warmUpSearch(
      {
        invoke: async (channel, request) => {
          const answer = await router.invoke(channel, request);
          answers.push(answer);
          return answer;
        },
      },
      () => false,
    );
    expect(asked).toBe(WARM_UP_QUERIES.length);
    expect(order).toEqual(WARM_UP_QUERIES.map((query) => `search ${query} 50`));
    expect(answers.every((answer) => (answer as { ok: boolean }).ok)).toBe(true);
    // Each kind a person types: letters, two words, digits, digits with a space, international.
    expect(WARM_UP_QUERIES).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^[a-z]$/),
        expect.stringMatching(/^[a-z]+ [a-z]+$/),
        expect.stringMatching(/^\d$/),
        expect.stringMatching(/^\d+ \d+$/),
        expect.stringMatching(/^\+\d+$/),
      ]),
    );
  });

  it('leaves a turn of the event loop between two searches for a request that comes meanwhile', async () => {
    const order: string[] = [];
    const router = recordingRouter(order);
    const warming = warmUpSearch(router, () => false);
    // A person's keystroke arriving while the warm-up runs: it waits for one search at most.
    setImmediate(() => order.push('keystroke'));
    await warming;
    expect(order.indexOf('keystroke')).toBeGreaterThanOrEqual(0);
    expect(order.indexOf('keystroke')).toBeLessThanOrEqual(1);
  });

  it('stops when the core closes', async () => {
    const order: string[] = [];
    const router = recordingRouter(order);
    let closed = false;
    const asked = await warmUpSearch(
      {
        invoke: async (channel, request) => {
          const answer = await router.invoke(channel, request);
          if (order.length === 3) closed = true;
          return answer;
        },
      },
      () => closed,
    );
    expect(asked).toBe(3);
    expect(order).toHaveLength(3);
  });
});
