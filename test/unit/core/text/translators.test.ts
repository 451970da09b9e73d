/**
 * Core's sentences by key, worded where they are shown: an error's message stays English (logs,
 * `--json`, the IPC answer) while the edge words it in German; a sentence a contract carries only
 * as text (an account status's message) is worded again when this process said it by key.
 */
import { describe, expect, it } from 'vitest';
import { parsePhoneNumber } from 'libphonenumber-js/max';
import { accountSwitch } from '../../../../src-main/core/account/account-history';
import {
  emergencyClass,
  externalClass,
  linkAskReason,
} from '../../../../src-main/core/numbers/destination-class';
import { sessionEndedMessage } from '../../../../src-main/core/account/session-health';
import { NotificationPlanner } from '../../../../src-main/core/desktop/notification-planner';
import { CallbarError, describeError } from '../../../../src-main/core/errors';
import { said } from '../../../../src-main/core/text/said';
import {
  inEnglish,
  sayAgain,
  sayAgainIn,
  translatorFor,
} from '../../../../src-main/core/text/translators';
import { VaultUnavailable } from '../../../../src-main/core/vault/vault';

const de = translatorFor('de', 'errors');

describe('errors said by key', () => {
  it('keep their English message and code, and are worded in German at the edge', () => {
    const error = new CallbarError(
      'duplicate_dial',
      said('errors:calls.duplicateDial', { display: '+49 30 1' }),
    );
    expect(error.message).toBe(
      'Already calling +49 30 1: one click is one call. To call again, wait a moment.',
    );
    expect(describeError(error)).toEqual({ code: 'duplicate_dial', message: error.message });
    expect(describeError(error, de)).toEqual({
      code: 'duplicate_dial',
      message:
        '+49 30 1 wird bereits angerufen: Ein Klick ist ein Anruf. Um erneut anzurufen, warten Sie einen Moment.',
    });
  });

  it('nest: a keychain failure in German, the keychain’s own words kept', () => {
    const error = new VaultUnavailable('No such interface', { platform: 'linux' });
    expect(error.message).toBe(
      'Callbar keeps your sign-in in the system keychain (Secret Service) and could not use it: No such interface. Install and unlock GNOME Keyring or KWallet (Callbar also needs the libsecret library), then try again. Callbar never stores tokens in a file.',
    );
    expect(describeError(error, de).message).toBe(
      'Callbar bewahrt Ihre Anmeldung im Schlüsselbund des Systems (Secret Service) auf und konnte sie nicht verwenden: No such interface. Installieren und entsperren Sie GNOME Keyring oder KWallet (Callbar braucht außerdem die Bibliothek libsecret) und versuchen Sie es dann erneut. Callbar speichert Tokens nie in einer Datei.',
    );
    // Passed on as a plain message (as an account status carries it), it is still worded again.
    const relayed = new CallbarError('vault_unavailable', error.message);
    expect(describeError(relayed, de).message).toBe(describeError(error, de).message);
  });
});

describe('sayAgain', () => {
  it('words a sentence this process said by key; others stay as they are', () => {
    expect(sayAgain(de, sessionEndedMessage())).toBe(
      'Ihre Callbar-Sitzung ist beendet: Die Telefonanlage nimmt sie nicht mehr an (sie wurde widerrufen oder anderswo verwendet). Verbinden Sie Callbar neu, um fortzufahren.',
    );
    expect(sayAgain(de, 'The platform’s own words.')).toBe('The platform’s own words.');
  });

  it('sayAgainIn words the sentences of an answer and copies only what changed', () => {
    const dial = {
      destination: '+493012345',
      description: inEnglish(said('errors:calls.duplicateDial', { display: '+49 30 1' })),
    };
    const hits = [{ contact: { id: 1, display_name: 'Ada' }, ranges: [{ start: 0, end: 1 }] }];
    const answer = { query: '030', hits, dial };
    const worded = sayAgainIn(de, answer);
    expect(worded.dial.description).toBe(
      '+49 30 1 wird bereits angerufen: Ein Klick ist ein Anruf. Um erneut anzurufen, warten Sie einen Moment.',
    );
    expect(worded).not.toBe(answer);
    expect(answer.dial.description).toMatch(/^Already calling/);
    // The hits carry no sentence: the same array, not a copy of every hit.
    expect(worded.hits).toBe(hits);
    // A search answer without a sentence (a keystroke's) comes back as it is: nothing rebuilt.
    const plain = { query: 'ada', hits };
    expect(sayAgainIn(de, plain)).toBe(plain);
    expect(sayAgainIn(de, { warnings: ['The platform’s own words.'] }).warnings).toEqual([
      'The platform’s own words.',
    ]);
  });

  it('an account switch: in the status as English, in a German notification as German', () => {
    const change = accountSwitch(
      {
        tenant_id: 'acme',
        user_extension: '202',
        base_url: 'https://pbx.example',
        connected_at: '2026-11-25T09:00:00Z',
        replaced: {
          tenant_id: 'acme',
          user_extension: '201',
          base_url: 'https://pbx.example',
          connected_at: '2026-11-24T09:00:00Z',
        },
      },
      { tenant_id: 'acme', user_extension: '202', base_url: 'https://pbx.example' },
    )!;
    expect(change.message).toBe(
      'Callbar is now connected to extension 202 (acme), not to extension 201 as before. If you did not connect it to this account yourself, disconnect Callbar and connect it again.',
    );
    const planner = new NotificationPlanner(() => translatorFor('de', 'shell'));
    expect(
      planner.plan({
        type: 'account.changed',
        status: { state: 'connected', account_switch: change },
      }),
    ).toEqual([
      {
        title: 'Callbar ist mit einem anderen Konto verbunden',
        body: 'Callbar ist jetzt mit der Nebenstelle 202 (acme) verbunden, nicht wie bisher mit der Nebenstelle 201. Wenn Sie es nicht selbst mit diesem Konto verbunden haben, trennen Sie Callbar und verbinden Sie es neu.',
        onClick: 'open',
      },
    ]);
  });
});

describe('a destination in words', () => {
  it('English as before in the contract; German where it is shown, the country named in German', () => {
    const abroad = externalClass(parsePhoneNumber('+12025550143'), 'DE');
    expect(abroad.description).toBe('This is a number in the United States, not in your country.');
    expect(sayAgain(de, abroad.description)).toBe(
      'Dies ist eine Rufnummer im Ausland (Vereinigte Staaten).',
    );
    const reason = linkAskReason(abroad, 'DE')!;
    expect(reason).toBe(
      'This is a number in the United States, not in your country. A link never dials such a number without asking you.',
    );
    expect(sayAgain(de, reason)).toBe(
      'Dies ist eine Rufnummer im Ausland (Vereinigte Staaten). Ein Link wählt eine solche Nummer nie, ohne Sie zu fragen.',
    );
    expect(sayAgain(de, emergencyClass('DE').description)).toBe(
      'Dies ist eine Notrufnummer (Deutschland): Sie verbindet mit dem Notruf.',
    );
  });
});
