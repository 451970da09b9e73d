import { afterEach, describe, expect, it } from 'vitest';
import { SimClock } from '../../simulator/clock';
import { RequestPacer } from '../../src-main/core/directory/request-pacer';

/** Whether `promise` has settled after everything already queued has run. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  promise.then(
    () => (done = true),
    () => (done = true),
  );
  await new Promise((resolve) => setImmediate(resolve));
  return done;
}

describe('RequestPacer on an injected clock (the simulator’s)', () => {
  const clocks: SimClock[] = [];
  afterEach(() => clocks.splice(0).forEach((clock) => clock.close()));
  const simClock = () => {
    const clock = new SimClock();
    clocks.push(clock);
    return clock;
  };

  it('lets `budget` requests through a window, then waits until the clock moves past it', async () => {
    const clock = simClock();
    const pacer = new RequestPacer({ budget: 3, windowMs: 60_000, clock });
    for (let i = 0; i < 3; i++) await pacer.take();
    expect(pacer.inWindow).toBe(3);
    const fourth = pacer.take();
    const fifth = pacer.take();
    expect(await settled(fourth)).toBe(false);

    clock.advance(30);
    expect(await settled(fourth)).toBe(false);
    // The first three leave the window a minute after they were sent: two more may go.
    clock.advance(31);
    await fourth;
    await fifth;
    expect(pacer.inWindow).toBe(2);
  });

  it('a cancelled wait rejects with the reason and gives the next caller its turn', async () => {
    const clock = simClock();
    const pacer = new RequestPacer({ budget: 1, windowMs: 60_000, clock });
    await pacer.take();
    const abort = new AbortController();
    const cancelled = pacer.take(abort.signal);
    const next = pacer.take();
    abort.abort(new Error('cancelled'));
    await expect(cancelled).rejects.toThrow('cancelled');
    expect(await settled(next)).toBe(false);
    clock.advance(60);
    await next;
  });
});
