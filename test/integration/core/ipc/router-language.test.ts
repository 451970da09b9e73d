/**
 * The window is answered in its language: an error core says by key reaches the renderer worded
 * in the `language` setting's language as it is now (German, then English once it is switched),
 * with the same stable code. A real core on a throwaway profile.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DialOutcome } from '../../../../src-shared/contract';
import type { CallbarCore } from '../../../../src-main/core/callbar-core';
import { startTestCore } from '../../../support/test-core';

describe('router errors in the window’s language', () => {
  let core: CallbarCore;
  beforeAll(async () => {
    core = await startTestCore({ env: { CALLBAR_LANGUAGE: 'de' } });
  });
  afterAll(() => core.close());

  it('words a keyed error in German, then in English after the setting changes', async () => {
    const german = await core.router.invoke('calls.hangup', {});
    expect(german).toMatchObject({ ok: false, error: { code: 'no_current_call' } });
    expect(german.ok || german.error.message).toBe(
      'Es gibt keinen laufenden Anruf, der aufgelegt werden könnte.',
    );
    core.profile.settings.language = 'en';
    const english = await core.router.invoke('calls.hangup', {});
    expect(english.ok || english.error.message).toBe('There is no call in progress to hang up.');
  });

  it('words core’s sentences in an answer too: a link’s reason and what the number is', async () => {
    core.profile.settings.language = 'de';
    const german = await core.router.invoke('calls.openUrl', { url: 'tel:911' });
    core.profile.settings.language = 'en';
    const english = await core.router.invoke('calls.openUrl', { url: 'tel:911' });
    if (!german.ok || !english.ok) throw new Error('the link was refused');
    const [de, en] = [german.value as DialOutcome, english.value as DialOutcome];
    if (de.status !== 'needs-confirmation' || en.status !== 'needs-confirmation') {
      throw new Error('an emergency link must ask');
    }
    expect(en.pending.target.description).toMatch(/emergency number in the United States/);
    expect(de.pending.target.description).not.toBe(en.pending.target.description);
    expect(de.pending.target.description).toMatch(/Notruf/);
    expect(de.pending.reason).not.toBe(en.pending.reason);
    // The rest of the answer is the same: the number, its class, the link.
    expect(de.pending.target.destination).toBe(en.pending.target.destination);
    expect(de.pending.target.class).toBe('emergency');
  });
});
