import { describe, expect, it } from 'vitest';
import { OpenWaits } from '../../../relay/open-waits';

/**
 * The relay's open activation waits (issue 40 point 3): capped per client address (429) and in
 * total (503), refused before the wait starts, and each place given back when its wait ends,
 * however it ends.
 */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

const status = (promise: Promise<unknown>) =>
  promise.then(
    () => 'held',
    (error: { status?: number }) => error.status,
  );

describe('OpenWaits', () => {
  it('refuses a wait past the address cap with 429 and past the total with 503', async () => {
    const waits = new OpenWaits({ perAddress: 2, total: 3 });
    const release = gate();
    let started = 0;
    const wait = () => {
      started += 1;
      return release.opened;
    };
    const held = [
      waits.hold('10.0.0.1', wait),
      waits.hold('10.0.0.1', wait),
      waits.hold('10.0.0.2', wait),
    ];
    expect(waits.size).toBe(3);
    expect(await status(waits.hold('10.0.0.1', wait))).toBe(429);
    // Other addresses, each under its own cap: the node is full.
    expect(await status(waits.hold('10.0.0.3', wait))).toBe(503);
    expect(await status(waits.hold('10.0.0.4', wait))).toBe(503);
    expect(started).toBe(3);

    release.open();
    await Promise.all(held);
    expect(waits.size).toBe(0);
    expect(await status(waits.hold('10.0.0.3', () => Promise.resolve()))).toBe('held');
  });

  it('gives the place back when a wait fails', async () => {
    const waits = new OpenWaits({ perAddress: 1, total: 1 });
    await expect(waits.hold('10.0.0.1', () => Promise.reject(new Error('gone')))).rejects.toThrow(
      'gone',
    );
    expect(waits.size).toBe(0);
    expect(await status(waits.hold('10.0.0.1', () => Promise.resolve()))).toBe('held');
  });
});
