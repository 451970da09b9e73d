/**
 * 10,000 fuzzed launch command lines and tel:/callto:/sip: links through the real parsers: the
 * argv reader of the desktop shell (`linkFromArgv`, `linkFromOpenUrl`) and the core's
 * `calls.openUrl` channel. A link is taken only from the one argument after the last `--`, is
 * never a switch (`--inspect`, `--gpu-launcher=…`), never carries a control character, and is
 * never dialed without the user's confirmation: every accepted link ends as `needs-confirmation`
 * and the platform is never asked (this core has none; an attempt would fail `not_connected`).
 * With links set to dial without asking, a link to an emergency, premium-rate, foreign or
 * unknown number still asks, and a service code (`*21*…#`) is refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DialOutcome, DialTarget } from '../../src-shared/contract';
import type { CallbarCore } from '../../src-main/core/callbar-core';
import {
  linkFromArgv,
  linkFromOpenUrl,
  MAX_LINK_LENGTH,
} from '../../src-main/core/desktop/launch-link';
import { startTestCore } from '../support/test-core';
import { recordFigure } from '../support/hardening/figures';
import { fuzzRandom, randomText } from '../support/hardening/hostile-values';

const VECTORS = 10_000;

const SWITCHES = [
  '--inspect',
  '--inspect=0.0.0.0:9229',
  '--inspect-brk',
  '--remote-debugging-port=9222',
  '--gpu-launcher=/bin/sh -c id',
  '--renderer-cmd-prefix=/bin/sh',
  '--utility-cmd-prefix=calc',
  '--no-sandbox',
  '--disable-web-security',
  '--js-flags=--allow-natives-syntax',
  '--require=/tmp/evil.js',
  '-r',
  '--',
  '-',
  '--allow-file-access-from-files',
  '--host-rules=MAP * attacker.example',
];

const NUMBERS = [
  '+49-30-1234567',
  '+1 (212) 555-0189',
  '201',
  '7341',
  '00442071234567',
  '+44%2020',
  '911',
  '112',
  '*21*0301234567%23',
  '%2A31%23',
  '+1-900-555-0123',
  '+49-900-1234567',
  '+1-202-555-0188',
];

function generatedLink(random: ReturnType<typeof fuzzRandom>): string {
  const scheme = random.pick([
    'tel:',
    'TEL:',
    'callto:',
    'callto://',
    'sip:',
    'tel://',
    'tel:-',
    '',
  ]);
  let body = random.pick(NUMBERS);
  switch (random.int(0, 9)) {
    case 0:
      body = random.pick(SWITCHES);
      break;
    case 1:
      body += random.pick(['\n--inspect', '\r\nX-Evil: 1', '\0', '\u2028', '\u202e']);
      break;
    case 2:
      body += random.pick([';ext=12', ';phone-context=+1', ';ext=1;ext=2', '?x=1', '#frag']);
      break;
    case 3:
      body = body.repeat(random.int(20, 400));
      break;
    case 4:
      body = randomText(random, random.int(0, 40));
      break;
    case 5:
      body = `${body} ${random.pick(SWITCHES)}`;
      break;
    case 6:
      body = encodeURIComponent(body) + random.pick(['%', '%zz', '%0a', '%00']);
      break;
    default:
      break;
  }
  return `${random.pick(['', ' ', '\t'])}${scheme}${body}`;
}

function argv(random: ReturnType<typeof fuzzRandom>, candidate: string): string[] {
  const parts = ['/usr/bin/callbar'];
  for (let i = random.int(0, 4); i > 0; i--) parts.push(random.pick(SWITCHES));
  const shape = random.int(0, 5);
  if (shape === 0) parts.push(candidate); // no `--` at all
  else if (shape === 1) parts.push('--', candidate);
  else if (shape === 2) parts.push('--', candidate, random.pick(SWITCHES));
  else if (shape === 3) parts.push(candidate, '--', random.pick(SWITCHES));
  else if (shape === 4) parts.push('--', random.pick(SWITCHES), '--', candidate);
  else parts.push('--');
  return parts;
}

describe('launch links and argv under 10,000 fuzzed vectors', () => {
  let core: CallbarCore;
  const opened: string[] = [];

  beforeAll(async () => {
    core = await startTestCore({ opened });
  });
  afterAll(() => core.close());

  it('reads a link only after the last --, never a switch, and never dials without asking', async () => {
    const random = fuzzRandom(4242);
    const problems: string[] = [];
    let taken = 0;
    let confirmations = 0;
    let refused = 0;
    let serviceCodes = 0;
    for (let i = 0; i < VECTORS; i++) {
      const candidate = generatedLink(random);
      const line = argv(random, candidate);
      const read = linkFromArgv(line);
      const fromOpenUrl = linkFromOpenUrl(candidate);
      const complain = (what: string) => {
        if (problems.length < 10) problems.push(`#${i} ${what}: ${JSON.stringify(line)}`);
      };
      if (read !== undefined) {
        const separator = line.lastIndexOf('--');
        if (read !== line[separator + 1]?.trim()) complain('not the argument after the last --');
        if (read.startsWith('-')) complain('a switch');
        if (/\p{Cc}/u.test(read)) complain('a control character');
        if (read.length > MAX_LINK_LENGTH) complain('too long');
        if (!/^(tel|callto):/i.test(read)) complain('not a tel:/callto: link');
      }
      if (fromOpenUrl !== undefined && /\p{Cc}|^-/u.test(fromOpenUrl)) complain('open-url');
      const taking = read ?? fromOpenUrl;
      if (taking === undefined) {
        refused++;
        continue;
      }
      taken++;
      const result = await core.router.invoke('calls.openUrl', { url: taking });
      if (result.ok) {
        const outcome = result.value as DialOutcome;
        if (outcome.status !== 'needs-confirmation') complain(`answered ${outcome.status}`);
        else confirmations++;
      } else if (result.error.code === 'link_refused') {
        serviceCodes++;
      } else if (!['invalid_number', 'invalid_request'].includes(result.error.code)) {
        complain(`failed ${result.error.code}: ${result.error.message}`);
      }
    }
    expect(problems).toEqual([]);
    const calls = await core.router.invoke('calls.list', {});
    expect(calls).toMatchObject({ ok: true, value: { current: [], recent: [] } });
    expect(opened).toEqual([]);
    // The generator reaches both sides: links that ask, and links refused.
    expect(confirmations).toBeGreaterThan(VECTORS / 10);
    expect(refused).toBeGreaterThan(VECTORS / 10);
    recordFigure(
      'tel:/argv: 10000 fuzzed command lines and links',
      `${refused} refused by the argv/open-url reader, ${taken - confirmations - serviceCodes} refused as numbers, ${serviceCodes} service codes refused, ${confirmations} asked for confirmation, 0 dialed, 0 switches read`,
    );
  });

  it('with "dial phone links without asking", still asks for risky numbers and refuses service codes', async () => {
    const trusting = await startTestCore({ env: { CALLBAR_CONFIRM_WEB_LINKS: 'false' } });
    try {
      const random = fuzzRandom(2525);
      const problems: string[] = [];
      const seen = { asked: 0, serviceCodes: 0, ordinary: 0, notNumbers: 0 };
      for (let i = 0; i < VECTORS; i++) {
        const url = linkFromOpenUrl(generatedLink(random));
        if (url === undefined) continue;
        const parsed = await trusting.router.invoke('calls.parse', { input: url });
        const result = await trusting.router.invoke('calls.openUrl', { url });
        if (!parsed.ok) {
          seen.notNumbers++;
          if (result.ok) problems.push(`#${i} ${url}: not a number, yet it was answered`);
          continue;
        }
        const target = parsed.value as DialTarget;
        const risky = ['emergency', 'premium-rate', 'international', 'unknown'].includes(
          target.class,
        );
        const answer = result.ok ? (result.value as DialOutcome).status : result.error.code;
        // Ordinary numbers dial at once: here that fails, as this core has no platform (or, for a
        // destination just tried, as a repeat of the same click).
        const expected =
          target.class === 'service-code'
            ? ['link_refused']
            : risky
              ? ['needs-confirmation']
              : ['not_connected', 'duplicate_dial'];
        if (!expected.includes(answer) && problems.length < 10) {
          problems.push(
            `#${i} ${url} (${target.class}): ${answer}, expected ${expected.join(' or ')}`,
          );
        }
        if (target.class === 'service-code') seen.serviceCodes++;
        else if (risky) seen.asked++;
        else seen.ordinary++;
      }
      expect(problems).toEqual([]);
      expect(seen.asked).toBeGreaterThan(VECTORS / 20);
      expect(seen.serviceCodes).toBeGreaterThan(VECTORS / 100);
      recordFigure(
        'tel: links with "dial without asking" on: 10000 fuzzed',
        `${seen.asked} emergency/premium-rate/foreign/unknown asked anyway, ${seen.serviceCodes} service codes refused, ${seen.ordinary} ordinary dialled at once, ${seen.notNumbers} not numbers; 0 risky dialled unasked`,
      );
    } finally {
      await trusting.close();
    }
  });
});
