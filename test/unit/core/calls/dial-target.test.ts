/**
 * parseDialTarget on what people type, paste and click: a table of accepted inputs (with what is
 * sent and shown), a table of refused ones (with the reason in the sentence), and a fuzz of random
 * strings that must each be a target or a typed error, never another exception.
 */
import type { CountryCode } from 'libphonenumber-js';
import { describe, expect, it } from 'vitest';
import type { DirectoryContact } from '../../../../src-shared/contract';
import { CallbarError } from '../../../../src-main/core/errors';
import {
  MAX_INPUT_LENGTH,
  parseDialTarget,
  type CallDirectory,
} from '../../../../src-main/core/calls/dial-target';
import { ada } from '../../../support/calls-fixtures';

const grace: DirectoryContact = {
  ...ada,
  id: 42,
  display_name: 'Grace Hopper',
  company: '',
  number: '030 1234567',
  speed_dial: 2345,
};

/** A small in-memory stand-in for the directory's two lookups (not the thing under test). */
const directory: CallDirectory = {
  lookupByNumber: (number) => [ada].find((contact) => contact.number === number),
  findBySpeedDial: (code) => [ada, grace].find((contact) => contact.speed_dial === code),
};

type Accepted = [
  input: string,
  destination: string,
  kind: 'external' | 'extension' | 'speed-dial',
  display?: string,
  region?: CountryCode,
];

const accepted: Accepted[] = [
  // tel: URIs (RFC 3966)
  ['tel:+49-30-1234567', '+49301234567', 'external', '+49 30 1234567'],
  ['tel:+49.30.123.4567', '+49301234567', 'external'],
  ['tel:+1(202)555-0188', '+12025550188', 'external', '(202) 555-0188'],
  ['TEL:+12025550188', '+12025550188', 'external'],
  // Arabic-Indic and Eastern Arabic-Indic digits, as libphonenumber reads them.
  ['tel:+١-٢٠٢-٥٥٥-٠١٨٨', '+12025550188', 'external', '(202) 555-0188'],
  ['۲۰۲ ۵۵۵ ۰۱۸۸', '+12025550188', 'external', '(202) 555-0188'],
  ['tel:+1-201-555-0123;ext=1234', '+12015550123', 'external', '(201) 555-0123 ext. 1234'],
  ['tel:+1-201-555-0123;ext=12-34', '+12015550123', 'external', '(201) 555-0123 ext. 1234'],
  ['tel:+1%20202%20555%200188', '+12025550188', 'external'],
  ['tel:%2B12025550188', '+12025550188', 'external'],
  ['tel:555-0188;phone-context=+1-202', '+12025550188', 'external'],
  ['tel:7042;phone-context=example.com', '7042', 'extension', 'Extension 7042'],
  ['tel:2071234567;phone-context=pbx.example.com', '+442071234567', 'external', undefined, 'GB'],
  ['tel:+4930123456;isub=1411', '+4930123456', 'external'],
  ['tel:+4930123456;unknown-param=x', '+4930123456', 'external'],
  ['tel://+4930123456', '+4930123456', 'external'],
  ['tel:020 7123 4567', '+442071234567', 'external', undefined, 'GB'],
  ['  tel:+4930123456  ', '+4930123456', 'external'],
  // callto:
  ['callto:+4930123456', '+4930123456', 'external'],
  ['callto://+4930123456', '+4930123456', 'external'],
  ['callto://+49%2030%20123456', '+4930123456', 'external'],
  ['callto:201', '201', 'extension'],
  // sip: and sips: with a number as the user part
  ['sip:+4930123456@example.com', '+4930123456', 'external'],
  ['sip:+4930123456@example.com;user=phone', '+4930123456', 'external'],
  ['sips:+1-212-555-1212@gateway.example.com', '+12125551212', 'external'],
  ['sip:201@pbx.example.com', '201', 'extension'],
  ['sip:+1-212-555-1212;ext=22@gw.example.com', '+12125551212', 'external'],
  // plain numbers
  ['+49 30 1234567', '+49301234567', 'external', '+49 30 1234567'],
  ['+44 (0)20 7123 4567', '+442071234567', 'external'],
  ['(202) 555-0188', '+12025550188', 'external', '(202) 555-0188'],
  ['202.555.0188', '+12025550188', 'external'],
  ['202-555-0188', '+12025550188', 'external'],
  ['1 202 555 0188', '+12025550188', 'external'],
  ['020 7123 4567', '+442071234567', 'external', '020 7123 4567', 'GB'],
  // shown the national way at home, the international way abroad
  ['+44 20 7123 4567', '+442071234567', 'external', '+44 20 7123 4567', 'DE'],
  ['+49 30 1234567', '+49301234567', 'external', '030 1234567', 'DE'],
  ['030 1234567', '+49301234567', 'external', undefined, 'DE'],
  ['0049 30 1234567', '+49301234567', 'external'],
  ['0044 20 7123 4567', '+442071234567', 'external'],
  ['011 49 30 1234567', '+49301234567', 'external'],
  ['+1 202 555 0188 x12', '+12025550188', 'external', '(202) 555-0188 ext. 12'],
  ['+1 202 555 0188 ext. 12', '+12025550188', 'external'],
  ['+1 202 555 0188, extension 12', '+12025550188', 'external'],
  ['+49/30/1234567', '+49301234567', 'external'],
  ['+49 30 1234567\n', '+49301234567', 'external'],
  ['\t+49 30 1234567', '+49301234567', 'external'],
  ['+49\u00a030\u00a01234567', '+49301234567', 'external'], // no-break spaces
  ['+49\u202f30\u20091234567', '+49301234567', 'external'], // narrow and thin spaces
  ['+49–30–1234567', '+49301234567', 'external'], // en dashes
  ['+49‐30‐1234567', '+49301234567', 'external'], // Unicode hyphens
  ['＋４９ ３０ １２３４５６７', '+49301234567', 'external'], // full-width
  // internal numbers
  ['201', '201', 'extension', 'Extension 201'],
  ['20', '20', 'extension'],
  ['123456', '123456', 'extension'],
  ['2-01', '201', 'extension'],
  ['*97', '*97', 'extension', 'Code *97'],
  ['*72#', '*72#', 'extension'],
  ['#31#', '#31#', 'extension'],
  // speed dials, resolved through the directory
  ['7341', '+442071234567', 'speed-dial', 'Ada Lovelace (speed dial 7341)'],
  ['2345', '+49301234567', 'speed-dial', 'Grace Hopper (speed dial 2345)', 'DE'],
  ['tel:7341;phone-context=example.com', '+442071234567', 'speed-dial'],
  ['7342', '7342', 'extension'], // no contact has it
  // a leading 0 is the trunk prefix: a short national number, not an extension (issue 27)
  ['030123', '+4930123', 'external', '030 123', 'DE'],
  ['0301234', '+49301234', 'external', '030 1234', 'DE'],
];

const refused: [input: string, reason: RegExp][] = [
  ['', /empty/],
  ['   ', /empty/],
  ['hello', /letters/],
  ['1-800-FLOWERS', /vanity numbers/],
  ['+49 30 1234567; rm -rf /', /“r”/],
  ['+4930123456 && reboot', /“&”/],
  ['$(reboot)', /“\$”/],
  ['`id`', /“`”/],
  ['+4930|cat', /“\|”/],
  ['<script>alert(1)</script>', /“<”/],
  ['+49 30 "1234567"', /“"”/],
  ["+49 30 '1234567'", /“'”/],
  ['+4930123456\\', /“\\”/],
  ['+49 30 1234567\u0000', /control/],
  ['+49 30 1234567\u0007', /control/],
  ['+49 30 \u202e7654321', /control/], // right-to-left override
  ['+49\u200b30 1234567', /control/], // zero-width space
  ['+49 30 1234567\u2028', /control/],
  ['\u001b[31m+4930123456', /control/],
  ['tel:', /no digits/],
  ['tel:;ext=12', /no digits/],
  ['tel:+4930%ZZ1234567', /percent-encoding/],
  ['tel:+4930123456?body=hi', /query or fragment/],
  ['tel:+4930123456#frag', /query or fragment/],
  ['tel:+4930123456;ext=1;ext=2', /repeats/],
  // A web page's ;ext= is percent-decoded text shown where Callbar asks: digits only (before:
  // a newline, an ESC sequence, a right-to-left override or a sentence reached the display).
  ['tel:+12125551234;ext=%E2%80%AE4321', /extension is not 1 to 8 digits/],
  ['tel:+19005550100;ext=%0A%0ACallbar%3A%20verified%2C%20safe', /extension is not 1 to 8/],
  ['tel:+19005550100;ext=%20(safe%20to%20call)', /extension is not 1 to 8 digits/],
  ['sip:+12125551234;ext=%1B%5D0%3Bpwned%07@gw.example.com', /extension is not 1 to 8/],
  ['tel:+12125551234;ext=123456789', /extension is not 1 to 8 digits/],
  ['tel:123;phone-context=not a domain!', /phone-context/],
  ['tel:123;phone-context=+1-abc', /phone-context/],
  ['sip:alice@example.com', /SIP address/],
  ['sips:reception@pbx.example.com', /SIP address/],
  ['callto:alice.smith', /letters/],
  ['mailto:someone@example.com', /letters|“:”|“@”/],
  ['http://evil.example/tel:+4930123456', /“:”|letters/],
  ['javascript:alert(1)', /letters|“:”/],
  ['1', /too short/],
  ['0123', /not a complete number in region/], // a trunk prefix, never an extension
  ['+', /country code|no digits/],
  ['++4930123456', /\+ may only come first/],
  ['+49 30 + 1234567', /\+ may only come first/],
  ['+1234567890123456', /at most 15 digits/],
  ['00000000000000000000', /at most 15 digits/],
  ['+999 123456', /country code/],
  ['+49 1', /country code or the length/],
  ['5551234', /not a complete number in region US/],
  ['+49 30 123*456', /do not belong in a phone number|service codes/],
  ['**##**', /service codes/],
  ['1234567*', /service codes/],
  ['x'.repeat(MAX_INPUT_LENGTH + 1), /longer than/],
  ['+49 30 1234567 ext', /letters/],
  // Other scripts' digits than those libphonenumber reads (Arabic-Indic: accepted above).
  ['०१२३४५६७८९', /“०”/],
  ['+49 30 1234567 ☎', /“☎”/],
];

describe('parseDialTarget', () => {
  it.each(accepted)('accepts %j', (input, destination, kind, display, region = 'US') => {
    const target = parseDialTarget(input, { region, directory });
    expect(target.destination).toBe(destination);
    expect(target.kind).toBe(kind);
    if (display !== undefined) expect(target.display).toBe(display);
  });

  it.each(refused)('refuses %j with a sentence saying why', (input, reason) => {
    let thrown: unknown;
    try {
      parseDialTarget(input, { region: 'US', directory });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(CallbarError);
    const error = thrown as CallbarError;
    expect(error.code).toBe('invalid_number');
    expect(error.field).toBe('target');
    expect(error.message).toMatch(/^That is not a phone number: /);
    expect(error.message).toMatch(reason);
  });

  it('shows none of the control or bidi characters it refuses in its sentence, however many', () => {
    // Before: only the first was replaced, so the second U+202E turned the rest of the sentence
    // around wherever it was shown as it is (the native host's answer, `callbar open-url`).
    for (const input of [
      '+49 30 \u202e1234\u202e567',
      'tel:+1\u202e\u202e2125551234',
      '\u200b\u2066+4930\u2069\u202d1234567',
    ]) {
      let message = '';
      try {
        parseDialTarget(input, { region: 'US', directory });
      } catch (error) {
        message = (error as CallbarError).message;
      }
      expect(message).toMatch(/control or invisible characters/);
      expect(message).not.toMatch(/[\p{Cc}\p{Cf}]/u);
    }
  });

  it('has the 60+ cases the issue asks for', () => {
    expect(accepted.length + refused.length).toBeGreaterThanOrEqual(60);
  });

  it('an emergency number that looks like the international prefix is the emergency number', () => {
    // 000 is Australia's emergency number: read as "00" + a country code it was refused.
    const target = parseDialTarget('000', { region: 'AU' });
    expect(target.destination).toBe('000');
    expect(target.class).toBe('emergency');
    // Elsewhere 000 is not an emergency number (and not a number at all).
    expect(() => parseDialTarget('000', { region: 'DE' })).toThrow(CallbarError);
  });

  it('follows the default region for national numbers (CALLBAR_REGION)', () => {
    expect(parseDialTarget('020 7123 4567', { region: 'GB' }).destination).toBe('+442071234567');
    expect(parseDialTarget('020 7123 4567', { region: 'DE' }).destination).toBe('+492071234567');
    expect(() => parseDialTarget('020 7123 4567', { region: 'US' })).toThrow(CallbarError);
  });

  it('reads keypad letters only when vanity numbers are on', () => {
    const options = { region: 'US' as const, vanityNumbers: true };
    expect(parseDialTarget('1-800-FLOWERS', options).destination).toBe('+18003569377');
    expect(parseDialTarget('+1 800 GOT JUNK', options).destination).toBe('+18004685865');
    expect(() => parseDialTarget('sip:alice@example.com', options)).toThrow(/SIP address/);
    expect(() => parseDialTarget('1-800-FLOWERS; ls', options)).toThrow(/“;”/);
  });

  it('reads no keypad letters that spell no vanity word: a label, a note', () => {
    const options = { region: 'DE' as const, vanityNumbers: true };
    // Each read as keypad letters dialled another number: +49 8350 301234567 ("Tel"),
    // +49 30 12345691, +49 30 1234568.
    for (const written of ['Tel. 030 1234567', '+4930123456 T', '030 12345 ab']) {
      expect(() => parseDialTarget(written, options), written).toThrow(
        `That is not a phone number: ${written} (it contains letters).`,
      );
      // Nor is turning vanity numbers on the advice: it would not make them a number.
      expect(() => parseDialTarget(written, { region: 'DE' }), written).toThrow(
        `That is not a phone number: ${written} (it contains letters).`,
      );
    }
    expect(parseDialTarget('+1 800 GOT JUNK', options).destination).toBe('+18004685865');
  });

  it('dials the number before a pause and says which keys to press once the call is answered', () => {
    // Meeting invitations and diallers write a conference's PIN after a pause; click-to-dial
    // sends no keys. Before, each was refused ("it contains “,”", "the link has a query or
    // fragment", "it contains letters"), or `;postd=` was dropped without a word.
    const cases: [string, string, string][] = [
      ['tel:+16465588656,,81234567890#', '+16465588656', '81234567890#'],
      ['+1 646-558-8656,,123456789#', '+16465588656', '123456789#'],
      ['tel:+1-646-558-8656,,123456789%23', '+16465588656', '123456789#'],
      ['tel:+1-212-555-0101;postd=pp1234', '+12125550101', '1234'],
      ['+49 30 1234567 p 12', '+49301234567', '12'],
      ['+49 30 123456 w 1', '+4930123456', '1'],
      ['030 1234567;12', '+49301234567', '12'],
      ['+49 69 365067155,,123456789#,,,,1234#', '+4969365067155', '123456789#,,,,1234#'],
    ];
    for (const [written, destination, keys] of cases) {
      for (const vanityNumbers of [false, true]) {
        const target = parseDialTarget(written, { region: 'DE', vanityNumbers });
        expect(target.destination, written).toBe(destination);
        expect(target.post_dial, written).toBe(keys);
        expect(target.display, written).toMatch(
          new RegExp(`, then ${keys.replace(/[*#]/g, '\\$&')}$`),
        );
        expect(target.note, written).toBe(
          `Callbar dials the number only. When the call is answered, press ${keys} on your phone’s keypad.`,
        );
      }
    }
    // A trailing pause with no keys is no keys; a plain number has none.
    expect(parseDialTarget('+49 30 1234567,', { region: 'DE' }).post_dial).toBeUndefined();
    expect(parseDialTarget('+49 30 1234567', { region: 'DE' }).note).toBeUndefined();
    // Still refused: a fragment that follows no pause, other characters among the keys, too many
    // keys, and keys after an extension or a code.
    for (const [written, why] of [
      ['tel:+4930123456#frag', 'the link has a query or fragment'],
      ['+49 30 1234567,,12a', 'it contains “a”'],
      [`+49 30 1234567,,${'1'.repeat(41)}`, 'the keys after the pause are more than 40'],
      ['201,,5', 'keys to press after the call is answered can follow only an outside number'],
    ]) {
      expect(() => parseDialTarget(written!, { region: 'DE' }), written).toThrow(why);
    }
  });

  it('attaches the directory contact of an external number', () => {
    const target = parseDialTarget('+44 20 7123 4567', { region: 'US', directory });
    expect(target.contact?.display_name).toBe('Ada Lovelace');
    expect(parseDialTarget('+49 30 1234567', { region: 'US', directory }).contact).toBeUndefined();
  });

  it('says what a speed dial dials, shown as numbers are, beside its name and code', () => {
    const inGermany = parseDialTarget('2345', { region: 'DE', directory });
    expect(inGermany.display).toBe('Grace Hopper (speed dial 2345)');
    expect(inGermany.dials_shown).toBe('030 1234567');
    // Ada's is stored in international form: shown so outside her country.
    expect(parseDialTarget('7341', { region: 'US', directory }).dials_shown).toBe(
      '+44 20 7123 4567',
    );
    // A typed number is no speed dial: it has none.
    expect(parseDialTarget('030 1234567', { region: 'DE', directory }).dials_shown).toBeUndefined();
  });

  it('never quotes more than a short piece of a long input back', () => {
    const long = `+49 30 1234567 ${'; drop table'.repeat(10)}`;
    expect(() => parseDialTarget(long, { region: 'US' })).toThrow(/^.{0,120}$/);
  });

  it('turns 10,000 random strings into a target or a typed error, never another exception', () => {
    let seed = 20251124;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const alphabets = [
      '0123456789',
      '0123456789 +-.()/',
      '0123456789+*#;=,%@:/?&',
      'telcalosip:+0123456789;ext=phone-context.',
      'abcxyzABCXYZ0123456789\u0000\u001b\u200b\u202e\u00a0＋１２３٠',
    ];
    const prefixes = ['', '', 'tel:', 'callto://', 'sip:', '00', '+', 'tel:+'];
    let parsed = 0;
    for (let i = 0; i < 10_000; i++) {
      const alphabet = alphabets[Math.floor(random() * alphabets.length)]!;
      const length = Math.floor(random() * (i % 100 === 0 ? 400 : 24));
      let text = prefixes[Math.floor(random() * prefixes.length)]!;
      for (let j = 0; j < length; j++) text += alphabet[Math.floor(random() * alphabet.length)];
      try {
        const target = parseDialTarget(text, {
          region: 'DE',
          vanityNumbers: i % 2 === 0,
          directory,
        });
        parsed++;
        expect(target.destination).toMatch(/^(\+\d{2,15}|[*#]{0,2}\d[\d*#]*)$/);
      } catch (error) {
        if (!(error instanceof CallbarError) || error.code !== 'invalid_number') {
          throw new Error(`${JSON.stringify(text)} threw ${String(error)}`, { cause: error });
        }
      }
    }
    // The fuzz reaches the accepting paths too, not only the refusals.
    expect(parsed).toBeGreaterThan(500);
  });
});
