/**
 * The relay link's pause between attempts: exponential, capped, jittered within each step, and
 * back to the first step after a success. The random source is given, so no clock is involved.
 */
import { expect, it } from 'vitest';
import { RetryDelay } from '../../../../src-main/core/http/retry-delay';

it('grows by doubling up to the cap, each pause a random point in the upper half of its step', () => {
  const draws = [0, 0.5, 0.999, 0, 0.5, 0.999, 0, 0.5];
  let index = 0;
  const delay = new RetryDelay({
    initialMs: 100,
    maxMs: 1000,
    random: () => draws[index++ % draws.length]!,
  });
  const pauses = Array.from({ length: 8 }, () => delay.next());
  const steps = [100, 200, 400, 800, 1000, 1000, 1000, 1000];
  pauses.forEach((pause, at) => {
    expect(pause).toBeGreaterThanOrEqual(steps[at]! / 2);
    expect(pause).toBeLessThanOrEqual(steps[at]!);
  });
  expect(pauses).toEqual([50, 150, 399.8, 400, 750, 999.5, 500, 750]);
});

it('starts again from the first step after a success', () => {
  const delay = new RetryDelay({ initialMs: 100, maxMs: 5000, random: () => 0.5 });
  for (let index = 0; index < 10; index += 1) delay.next();
  expect(delay.next()).toBe(3750);
  delay.reset();
  expect(delay.next()).toBe(75);
});

it('two devices with different random draws do not come back at the same moment', () => {
  const a = new RetryDelay({ random: () => 0.1 });
  const b = new RetryDelay({ random: () => 0.9 });
  for (let index = 0; index < 6; index += 1) expect(a.next()).not.toBe(b.next());
});
