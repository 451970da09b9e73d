/**
 * The real-time wait (abortableDelay, the system clock's sleep): a wait longer than a Node timer
 * holds (a platform's Retry-After of weeks) is not ended at once by the timer's overflow.
 */
import { describe, expect, it } from 'vitest';
import { abortableDelay } from '../../../src-main/core/clock';

describe('abortableDelay', () => {
  it('waits past a timer’s longest delay instead of ending at once', async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.name);
    process.on('warning', onWarning);
    const stop = new AbortController();
    const waited = abortableDelay(2 ** 31 + 5, stop.signal).then(
      () => 'ended',
      () => 'aborted',
    );
    const first = await Promise.race([
      waited,
      new Promise((resolve) => setTimeout(() => resolve('still waiting'), 100)),
    ]);
    stop.abort(new Error('enough'));
    process.off('warning', onWarning);
    expect(first).toBe('still waiting');
    expect(await waited).toBe('aborted');
    expect(warnings).not.toContain('TimeoutOverflowWarning');
  });

  it('ends after a short delay, and at once when aborted before', async () => {
    await expect(abortableDelay(5)).resolves.toBeUndefined();
    await expect(abortableDelay(5, AbortSignal.abort(new Error('no')))).rejects.toThrow('no');
  });
});
