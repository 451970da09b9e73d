import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApi } from '../../../src-preload/api';
import { channelNames, type CallbarEvent } from '../../../src-shared/contract';
import type { CallbarCore } from '../../../src-main/core/callbar-core';
import { startTestCore } from '../../support/test-core';

describe('window.callbar built from the contract', () => {
  let core: CallbarCore;
  beforeAll(async () => {
    core = await startTestCore();
  });
  afterAll(() => core.close());
  const api = buildApi({
    invoke: (channel, request) => core.router.invoke(channel, request),
    subscribe: (listener) => core.events.subscribe(listener),
  });

  it('has one named method per channel, grouped by domain', () => {
    for (const channel of channelNames) {
      const [domain, verb] = channel.split('.') as [string, string];
      const group = (api as unknown as Record<string, Record<string, unknown>>)[domain];
      expect(typeof group?.[verb]).toBe('function');
    }
    expect(Object.keys(api)).not.toContain('invoke');
  });

  it('round-trips app.info through the real router', async () => {
    const result = await api.app.info();
    expect(result.ok && result.value.runtime).toBe('preview');
  });

  it('delivers events until unsubscribed', () => {
    const seen: CallbarEvent[] = [];
    const unsubscribe = api.onEvent((event) => seen.push(event));
    core.events.publish({ type: 'app.notice', level: 'info', message: 'one' });
    unsubscribe();
    core.events.publish({ type: 'app.notice', level: 'info', message: 'two' });
    expect(seen.map((event) => event.type === 'app.notice' && event.message)).toEqual(['one']);
  });

  it('turns a transport failure into a result, never a rejection', async () => {
    const broken = buildApi({
      invoke: () => Promise.reject(new Error('socket closed')),
      subscribe: () => () => undefined,
    });
    const result = await broken.app.info();
    expect(result).toMatchObject({ ok: false, error: { code: 'transport' } });
    if (!result.ok) expect(result.error.message).toContain('socket closed');
  });

  it('refuses to publish an event outside the contract', () => {
    expect(() =>
      core.events.publish({ type: 'app.notice', level: 'loud' } as unknown as CallbarEvent),
    ).toThrow();
  });
});
