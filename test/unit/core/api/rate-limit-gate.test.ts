/**
 * The gate that holds requests back after a 429: reads wait their turn, commands are refused at
 * once, except for a remainder a timer's slack leaves (a caller that slept the Retry-After itself
 * wakes a few milliseconds early by the gate's clock).
 */
import { describe, expect, it } from 'vitest';
import { RateLimitedError } from '../../../../src-main/core/api/api-errors';
import { COMMAND_GRACE_MS, RateLimitGate } from '../../../../src-main/core/api/rate-limit-gate';

/** A gate on a clock the test moves. */
function gateAt(start = 1_000) {
  let now = start;
  const gate = new RateLimitGate(() => now);
  return { gate, advance: (ms: number) => (now += ms) };
}

describe('RateLimitGate', () => {
  it('refuses a command at once while the platform asked to wait, naming the wait left', async () => {
    const { gate, advance } = gateAt();
    gate.block('call-control', 1_000);
    advance(400);
    const refused = await gate
      .pass('call-control', '/calls/', false)
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(RateLimitedError);
    expect((refused as RateLimitedError).retryAfterMs).toBe(600);
    // Another scope is not held.
    await expect(gate.pass('phonebook', '/contacts/', false)).resolves.toBeUndefined();
  });

  it('lets a command through that comes a timer’s slack before the wait is over', async () => {
    const { gate, advance } = gateAt();
    gate.block('phonebook', 1_000);
    // The caller slept 1,000 ms on a timer that fired 0.4 ms early by the gate's clock (Node
    // counts timers in whole milliseconds).
    advance(999.6);
    await expect(gate.pass('phonebook', '/contacts/', false)).resolves.toBeUndefined();
    gate.block('phonebook', 1_000);
    advance(1_000 - COMMAND_GRACE_MS - 1);
    await expect(gate.pass('phonebook', '/contacts/', false)).rejects.toBeInstanceOf(
      RateLimitedError,
    );
  });

  it('lets everything through once the wait is over, and a read waits its turn', async () => {
    const { gate, advance } = gateAt();
    gate.block('phonebook', 30);
    const read = gate.pass('phonebook', '/contacts/', true);
    await expect(read).resolves.toBeUndefined();
    advance(30);
    await expect(gate.pass('phonebook', '/contacts/', false)).resolves.toBeUndefined();
  });
});
