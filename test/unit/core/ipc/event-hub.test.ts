import { describe, expect, it } from 'vitest';
import type { CallbarEvent } from '../../../../src-shared/contract';
import { EventHub } from '../../../../src-main/core/ipc/event-hub';

/**
 * Core's events: checked against the contract before a listener hears them; one given as a
 * function (the core's start publishes the call list and the account that way) is made only
 * when someone listens.
 */
describe('EventHub', () => {
  const outside = { type: 'app.notice', level: 'loud' } as unknown as CallbarEvent;

  it('makes an event given as a function only when someone listens, and checks it then', () => {
    const hub = new EventHub();
    let made = 0;
    const make = (): CallbarEvent => {
      made += 1;
      return outside;
    };
    hub.publish(make);
    expect(made).toBe(0);
    const heard: CallbarEvent[] = [];
    const unsubscribe = hub.subscribe((event) => heard.push(event));
    expect(() => hub.publish(make)).toThrow();
    expect(made).toBe(1);
    expect(heard).toEqual([]);
    hub.publish(() => ({ type: 'settings.changed' }));
    expect(heard).toEqual([{ type: 'settings.changed' }]);
    unsubscribe();
    hub.publish(make);
    expect(made).toBe(1);
  });

  it('refuses an event outside the contract given as it is, listened to or not', () => {
    const hub = new EventHub();
    expect(() => hub.publish(outside)).toThrow();
    hub.subscribe(() => undefined);
    expect(() => hub.publish(outside)).toThrow();
  });
});
