import { describe, expect, it } from 'vitest';
import type { CallbarEvent } from '../../../../src-shared/contract';
import { EventHub } from '../../../../src-main/core/ipc/event-hub';
import { said } from '../../../../src-main/core/text/said';
import { inEnglish, translatorFor } from '../../../../src-main/core/text/translators';

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

  it('says core’s sentences in every event in the window’s language, the sync’s error too', () => {
    const hub = new EventHub(() => translatorFor('de', 'errors'));
    const heard: CallbarEvent[] = [];
    hub.subscribe((event) => heard.push(event));
    const reason = inEnglish(said('errors:directory.syncIncomplete', { reason: 'HTTP 503' }));
    expect(reason).toBe('The last sync did not complete: HTTP 503');
    // directory.changed was the event that forgot to: the window heard it in English.
    hub.publish({
      type: 'directory.changed',
      status: { state: 'stale', contacts: 3, phonebooks: 1, last_error: reason },
    });
    expect(heard).toEqual([
      {
        type: 'directory.changed',
        status: {
          state: 'stale',
          contacts: 3,
          phonebooks: 1,
          last_error: 'Die letzte Synchronisierung wurde nicht abgeschlossen: HTTP 503',
        },
      },
    ]);
  });

  it('leaves an event without core’s sentences as it is, and a hub without words in English', () => {
    const english = new EventHub();
    const heard: CallbarEvent[] = [];
    english.subscribe((event) => heard.push(event));
    const reason = inEnglish(said('errors:directory.syncIncomplete', { reason: 'HTTP 503' }));
    english.publish({
      type: 'directory.changed',
      status: { state: 'stale', contacts: 0, phonebooks: 0, last_error: reason },
    });
    expect(heard).toMatchObject([{ status: { last_error: reason } }]);
  });
});
