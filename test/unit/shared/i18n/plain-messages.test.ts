/**
 * Messages put together without ICU (plain-messages.ts) read exactly as intl-messageformat makes
 * them: every message of every catalog and locale, its arguments given as strings; numbers, a
 * missing argument and ICU syntax still go to ICU.
 */
import IntlMessageFormat from 'intl-messageformat';
import { describe, expect, it } from 'vitest';
import {
  allCatalogs,
  createI18n,
  intlLocale,
  type Catalog,
  type Locale,
} from '../../../../src-shared/i18n';
import { plainMessage } from '../../../../src-shared/i18n/plain-messages';

function messagesOf(catalog: Catalog, into: string[] = []): string[] {
  for (const value of Object.values(catalog)) {
    if (typeof value === 'string') into.push(value);
    else messagesOf(value, into);
  }
  return into;
}

describe('plain messages', () => {
  it('read word for word as intl-messageformat makes them, in every catalog', () => {
    let plain = 0;
    let total = 0;
    for (const [locale, namespaces] of Object.entries(allCatalogs())) {
      for (const catalog of Object.values(namespaces)) {
        for (const message of messagesOf(catalog)) {
          total++;
          // Every {name} a string (quotes and braces in it stay text).
          const values: Record<string, string> = Object.fromEntries(
            [...message.matchAll(/\{(\w+)/g)].map(([, name]) => [name!, `‹${name} '{x}' #›`]),
          );
          const text = plainMessage(message, values);
          if (text === undefined) continue;
          plain++;
          const icu = new IntlMessageFormat(message, intlLocale(locale as Locale), undefined, {
            ignoreTag: true,
          });
          expect(text, message).toBe(icu.format(values));
        }
      }
    }
    // Most messages need no ICU: this is what saves the work.
    expect(plain / total).toBeGreaterThan(0.8);
  });

  it('leaves numbers, missing values and ICU syntax to ICU', () => {
    expect(plainMessage('{count} calls', { count: 1200 })).toBeUndefined();
    expect(plainMessage('Hello {name}', {})).toBeUndefined();
    expect(plainMessage('{n, plural, one {# call} other {# calls}}', { n: '1' })).toBeUndefined();
    expect(plainMessage("It''s '{'literal'}'", {})).toBeUndefined();
    expect(plainMessage("Run 'callbar help {command}'.", { command: 'dial' })).toBe(
      "Run 'callbar help dial'.",
    );
  });

  it('an i18next instance formats both kinds', () => {
    const t = createI18n({ locale: 'de', defaultNamespace: 'cli' }).getFixedT('de', 'cli');
    const icu = (message: string, values: Record<string, unknown>) =>
      new IntlMessageFormat(message, 'de', undefined, { ignoreTag: true }).format(values);
    expect(t('usage.seeHelp')).toBe(icu(t('usage.seeHelp'), {}));
    expect(t('errors:policy.fileUnreadable', { file: '/etc/x', reason: 'nein' })).toBe(
      'Die Richtliniendatei /etc/x konnte nicht gelesen werden: nein.',
    );
  });
});
