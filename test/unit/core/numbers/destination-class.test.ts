/**
 * What every destination is, before anything is dialled: a table of inputs in the regions US, GB,
 * DE and FR (emergency numbers from libphonenumber's short-number data, number types from its
 * `max` metadata), the emergency number that beats a speed dial with the same digits, the link
 * verdicts (ask, refuse) and the policy settings.
 */
import type { CountryCode } from 'libphonenumber-js';
import { describe, expect, it } from 'vitest';
import type { DestinationClass, DirectoryContact } from '../../../../src-shared/contract';
import {
  checkDialPolicy,
  linkAskReason,
  refuseServiceCodeLink,
} from '../../../../src-main/core/numbers/destination-class';
import { parseDialTarget, type CallDirectory } from '../../../../src-main/core/calls/dial-target';
import { CallbarError } from '../../../../src-main/core/errors';
import { ada } from '../../../support/calls-fixtures';

/** A coworker's contact whose speed dial is the emergency number (the contract allows 200–999). */
const mallory: DirectoryContact = {
  ...ada,
  id: 911,
  display_name: 'Mallory Speed',
  number: '+1 202 555 0199',
  speed_dial: 911,
};
const brenda: DirectoryContact = { ...ada, id: 999, display_name: 'Brenda', speed_dial: 999 };
const kurt: DirectoryContact = { ...ada, id: 110, display_name: 'Kurt', speed_dial: 110 };

/** A small in-memory stand-in for the directory's two lookups (not the thing under test). */
const directory: CallDirectory = {
  lookupByNumber: () => undefined,
  findBySpeedDial: (code) => [ada, mallory, brenda, kurt].find((c) => c.speed_dial === code),
};

type Row = [
  input: string,
  region: CountryCode,
  cls: DestinationClass,
  destination: string,
  country: string | undefined,
];

const rows: Row[] = [
  // Emergency numbers, per region (libphonenumber's ShortNumberMetadata)
  ['911', 'US', 'emergency', '911', 'US'],
  ['112', 'US', 'emergency', '112', 'US'],
  ['tel:911', 'US', 'emergency', '911', 'US'],
  ['9-1-1', 'US', 'emergency', '911', 'US'],
  ['999', 'GB', 'emergency', '999', 'GB'],
  ['112', 'GB', 'emergency', '112', 'GB'],
  ['110', 'DE', 'emergency', '110', 'DE'],
  ['112', 'DE', 'emergency', '112', 'DE'],
  ['112', 'FR', 'emergency', '112', 'FR'],
  ['15', 'FR', 'emergency', '15', 'FR'],
  ['17', 'FR', 'emergency', '17', 'FR'],
  // …and where it is not one, the speed dial with those digits applies
  ['911', 'DE', 'international', '+12025550199', 'US'],
  ['911', 'GB', 'international', '+12025550199', 'US'],
  ['201', 'US', 'extension', '201', undefined],
  ['tel:7042;phone-context=example.com', 'US', 'extension', '7042', undefined],
  // Speed dials take the class of the number they stand for
  ['999', 'US', 'international', '+442071234567', 'GB'],
  ['7341', 'US', 'international', '+442071234567', 'GB'],
  ['7341', 'GB', 'national', '+442071234567', 'GB'],
  ['110', 'US', 'international', '+442071234567', 'GB'],
  // Premium-rate, shared-cost, toll-free (libphonenumber-js max metadata)
  ['0900 1234567', 'DE', 'premium-rate', '+499001234567', 'DE'],
  ['tel:+49-900-1234567', 'US', 'premium-rate', '+499001234567', 'DE'],
  ['0909 879 0000', 'GB', 'premium-rate', '+449098790000', 'GB'],
  ['+44 871 123 4567', 'GB', 'premium-rate', '+448711234567', 'GB'],
  ['+1-900-555-1234', 'US', 'premium-rate', '+19005551234', 'US'],
  ['08 99 12 34 56', 'FR', 'premium-rate', '+33899123456', 'FR'],
  ['+49 180 1234567', 'DE', 'shared-cost', '+491801234567', 'DE'],
  ['+1 800 555 1234', 'US', 'toll-free', '+18005551234', 'US'],
  // National and international
  ['+1 202 555 0188', 'US', 'national', '+12025550188', 'US'],
  ['030 1234567', 'DE', 'national', '+49301234567', 'DE'],
  ['01 42 68 53 00', 'FR', 'national', '+33142685300', 'FR'],
  ['+49 30 1234567', 'US', 'international', '+49301234567', 'DE'],
  ['+1 876 555 1234', 'US', 'international', '+18765551234', 'JM'],
  ['0049 30 1234567', 'FR', 'international', '+49301234567', 'DE'],
  // Possible in length, but of no known kind
  ['+49 900 12345678', 'US', 'unknown', '+4990012345678', 'DE'],
  // Service codes
  ['*21*12345678#', 'DE', 'service-code', '*21*12345678#', undefined],
  ['tel:*21*0301234567%23', 'US', 'service-code', '*21*0301234567#', undefined],
  ['#31#', 'GB', 'service-code', '#31#', undefined],
  ['*97', 'US', 'service-code', '*97', undefined],
];

describe('destination classes', () => {
  it.each(rows)('%j in %s is %s', (input, region, cls, destination, country) => {
    const target = parseDialTarget(input, { region, directory });
    expect(target).toMatchObject({ class: cls, destination });
    expect(target.country).toBe(country);
    expect(target.e164).toBe(destination.startsWith('+') ? destination : undefined);
    expect(target.description).toMatch(/^This is /);
  });

  it('says the class and the country in plain words', () => {
    const words = (input: string, region: CountryCode) =>
      parseDialTarget(input, { region }).description;
    expect(words('0900 1234567', 'DE')).toBe(
      'This is a premium-rate number in Germany: calls to it cost more.',
    );
    expect(words('+44 909 879 0000', 'US')).toBe(
      'This is a premium-rate number in the United Kingdom: calls to it cost more.',
    );
    expect(words('+49 30 1234567', 'US')).toBe('This is a number in Germany, not in your country.');
    expect(words('911', 'US')).toBe(
      'This is an emergency number in the United States: it calls emergency services.',
    );
  });
});

describe('an emergency number is never a speed dial', () => {
  it('911 in the US is 911, not the coworker whose speed dial is 911; the contact is named', () => {
    for (const input of ['911', 'tel:911', 'callto:911']) {
      const target = parseDialTarget(input, { region: 'US', directory });
      expect(target).toMatchObject({ destination: '911', class: 'emergency', kind: 'extension' });
      expect(target.contact).toBeUndefined();
      expect(target.note).toBe(
        'Speed dial 911 (Mallory Speed) is also the emergency number: dialling 911 calls emergency services, not Mallory Speed.',
      );
    }
  });

  it('999 in GB and 110 in DE too; elsewhere the same code is the speed dial', () => {
    expect(parseDialTarget('999', { region: 'GB', directory })).toMatchObject({
      destination: '999',
      class: 'emergency',
      note: expect.stringContaining('Brenda') as string,
    });
    expect(parseDialTarget('110', { region: 'DE', directory }).destination).toBe('110');
    expect(parseDialTarget('999', { region: 'US', directory })).toMatchObject({
      kind: 'speed-dial',
      destination: '+442071234567',
      contact: { display_name: 'Brenda' },
    });
  });
});

describe('links', () => {
  const reason = (input: string, region: CountryCode = 'US') =>
    linkAskReason(parseDialTarget(input, { region, directory }), region);

  it('always ask for emergency, premium-rate, foreign and unknown numbers, and say why', () => {
    expect(reason('tel:911')).toBe(
      'This is an emergency number in the United States: it calls emergency services. A link never dials such a number without asking you.',
    );
    expect(reason('tel:0900-1234567', 'DE')).toBe(
      'This is a premium-rate number in Germany: calls to it cost more. A link never dials such a number without asking you.',
    );
    expect(reason('tel:+49-30-1234567')).toMatch(
      /^This is a number in Germany, not in your country/,
    );
    expect(reason('tel:+1-800-555-1234;phone-context=x')).toBeUndefined();
    // Toll-free abroad is still abroad.
    expect(reason('tel:+44-800-123-4567')).toMatch(/toll-free number in the United Kingdom/);
    expect(reason('tel:+49-900-12345678')).toMatch(/cannot tell/);
  });

  it('ask only as the setting says for extensions, national, toll-free and shared-cost numbers', () => {
    for (const input of ['tel:201', 'tel:+1-202-555-0188', 'tel:+1-800-555-1234']) {
      expect(reason(input), input).toBeUndefined();
    }
    expect(reason('tel:+49-180-1234567', 'DE')).toBeUndefined();
  });

  it('never dial a service code', () => {
    const target = parseDialTarget('tel:*21*0301234567%23', { region: 'DE' });
    expect(() => refuseServiceCodeLink(target)).toThrow(
      /never dials a service code from a link: \*21\*0301234567# could change settings of your phone line/,
    );
    expect(() => refuseServiceCodeLink(parseDialTarget('tel:911', { region: 'US' }))).not.toThrow();
  });
});

describe('the dialling policy', () => {
  const all = [
    'extension',
    'national',
    'international',
    'premium-rate',
    'shared-cost',
    'toll-free',
    'emergency',
    'service-code',
    'unknown',
  ] as const;
  const refusal = (input: string, policy: Parameters<typeof checkDialPolicy>[1]) => {
    try {
      checkDialPolicy(parseDialTarget(input, { region: 'DE' }), policy, 'DE');
      return undefined;
    } catch (error) {
      expect(error).toBeInstanceOf(CallbarError);
      expect((error as CallbarError).code).toBe('dial_not_allowed');
      return (error as CallbarError).message;
    }
  };
  const noPremium = {
    dial_allowed_classes: all.filter((cls) => cls !== 'premium-rate'),
    dial_allowed_countries: [],
  };

  it('refuses a class it does not allow, saying which setting and why', () => {
    expect(refusal('0900 1234567', noPremium)).toBe(
      'Callbar is set not to dial premium-rate numbers, so it did not dial 0900 1 234567. This is a premium-rate number in Germany: calls to it cost more. (Setting dial_allowed_classes: extension, national, international, shared-cost, toll-free, emergency, service-code, unknown.)',
    );
    expect(refusal('030 1234567', noPremium)).toBeUndefined();
  });

  it('refuses a country outside the list; the own region and an empty list allow every country', () => {
    const onlyFrance = { dial_allowed_classes: all, dial_allowed_countries: ['FR'] };
    expect(refusal('+44 20 7123 4567', onlyFrance)).toMatch(
      /^Callbar is set not to dial numbers in the United Kingdom, so it did not dial \+44 20 7123 4567\. \(Setting dial_allowed_countries: FR\.\)$/,
    );
    expect(refusal('+33 1 42 68 53 00', onlyFrance)).toBeUndefined();
    expect(refusal('030 1234567', onlyFrance)).toBeUndefined();
    expect(refusal('+44 20 7123 4567', { ...onlyFrance, dial_allowed_countries: [] })).toBe(
      undefined,
    );
  });

  it('always allows emergency numbers (a phone system must reach emergency services)', () => {
    expect(
      refusal('112', { dial_allowed_classes: [], dial_allowed_countries: [] }),
    ).toBeUndefined();
  });
});
