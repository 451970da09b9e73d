import { afterEach, describe, expect, it } from 'vitest';
import { SimClock } from '../../../../simulator/clock';
import { memoryStateFile } from '../../../../src-main/core/config/state-file';
import {
  LEARNT_RATE_FLOOR_PER_MINUTE,
  RequestPacer,
  type LearntRate,
} from '../../../../src-main/core/directory/request-pacer';

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

  /** A pacer of 100 a minute that has sent `sent` requests in its window. */
  const busyPacer = async (
    clock: SimClock,
    sent: number,
    memory = memoryStateFile<LearntRate>(),
  ): Promise<RequestPacer> => {
    const pacer = new RequestPacer({ budget: 100, windowMs: 60_000, clock, memory });
    for (let i = 0; i < sent; i++) await pacer.take();
    return pacer;
  };

  it('learns from a 429 that names its wait at once; a lone 429 without one teaches nothing', async () => {
    const clock = simClock();
    const limited = await busyPacer(clock, 51);
    await limited.learnFromRefusal({ retryAfterMs: 30_000 });
    expect(limited.budget).toBe(40); // 80 % of the 50 before the refused one

    // A passing fault (Retry-After 0 or none) in a busy window: the budget stays.
    const faulted = await busyPacer(clock, 51);
    await faulted.learnFromRefusal({ retryAfterMs: 0 });
    expect(faulted.budget).toBe(100);
    // The window moves on: the next such 429 is alone in its window too.
    clock.advance(61);
    for (let i = 0; i < 51; i++) await faulted.take();
    await faulted.learnFromRefusal({});
    expect(faulted.budget).toBe(100);
    // A second one within the same window is a limit.
    await faulted.learnFromRefusal({});
    expect(faulted.budget).toBe(40);
  });

  it('never learns, nor reads back from the profile, less than 20 requests a minute', async () => {
    const clock = simClock();
    const memory = memoryStateFile<LearntRate>();
    const pacer = await busyPacer(clock, 6, memory);
    await pacer.learnFromRefusal({ retryAfterMs: 60_000 });
    expect(pacer.budget).toBe(LEARNT_RATE_FLOOR_PER_MINUTE);
    await pacer.learnPolicy({ limit: 1, windowMs: 60_000 });
    expect(pacer.budget).toBe(LEARNT_RATE_FLOOR_PER_MINUTE);
    // Another program wrote the profile's file: one request a minute.
    await memory.write({ budget: 1, window_ms: 60_000, learnt_at: clock.nowIso() });
    const other = new RequestPacer({ budget: 100, windowMs: 60_000, clock, memory });
    await other.take();
    expect(other.budget).toBe(LEARNT_RATE_FLOOR_PER_MINUTE);
  });

  it('forgets what was learnt after an hour, here and in the profile’s other processes', async () => {
    const clock = simClock();
    const memory = memoryStateFile<LearntRate>();
    const pacer = await busyPacer(clock, 51, memory);
    await pacer.learnFromRefusal({ retryAfterMs: 1000 });
    const other = new RequestPacer({ budget: 100, windowMs: 60_000, clock, memory });
    await other.take();
    expect([pacer.budget, other.budget]).toEqual([40, 40]);
    clock.advance(59 * 60);
    await other.take();
    expect([pacer.budget, other.budget]).toEqual([40, 40]);
    clock.advance(2 * 60);
    await other.take();
    expect([pacer.budget, other.budget]).toEqual([100, 100]);
  });
});
