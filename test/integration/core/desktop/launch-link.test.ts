import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallsSnapshot } from '../../../../src-shared/contract';
import type { CallbarCore } from '../../../../src-main/core/callbar-core';
import {
  isDialLink,
  linkFromArgv,
  linkFromOpenUrl,
  MAX_LINK_LENGTH,
} from '../../../../src-main/core/desktop/launch-link';
import { openDialLink } from '../../../../src-main/core/desktop/shell-actions';
import { startTestCore } from '../../../support/test-core';

const exe = '/opt/Callbar/callbar';

describe('linkFromArgv (the command line the OS or a second instance hands over)', () => {
  it('takes the tel: or callto: link after --', () => {
    expect(linkFromArgv([exe, '--', 'tel:+4930123456'])).toBe('tel:+4930123456');
    expect(linkFromArgv([exe, '--', 'callto:+4930123456'])).toBe('callto:+4930123456');
    expect(linkFromArgv([exe, '--', 'TEL:+1-202-555-0100'])).toBe('TEL:+1-202-555-0100');
    // Chromium adds its own switches before the separator on a second instance.
    expect(linkFromArgv([exe, '--allow-file-access-from-files', '--hidden', '--', 'tel:201'])).toBe(
      'tel:201',
    );
    // A development run: electron <app folder> -- link
    expect(linkFromArgv(['/usr/bin/electron', '/src/callbar', '--', 'tel:201'])).toBe('tel:201');
  });

  it('uses only the argument after the LAST --', () => {
    expect(linkFromArgv([exe, '--', 'tel:111', '--', 'tel:222'])).toBe('tel:222');
    expect(linkFromArgv([exe, '--', 'tel:111', '--', '--inspect=9229'])).toBeUndefined();
  });

  it('ignores a link that is not after -- (it could have been read as a switch)', () => {
    expect(linkFromArgv([exe, 'tel:+4930123456'])).toBeUndefined();
    expect(linkFromArgv([exe, 'tel:+4930123456', '--'])).toBeUndefined();
    expect(linkFromArgv([exe])).toBeUndefined();
    expect(linkFromArgv([])).toBeUndefined();
  });

  it('refuses other schemes and switch-shaped text after --', () => {
    for (const hostile of [
      'https://evil.example/tel:123',
      'javascript:alert(1)',
      'file:///etc/passwd',
      'sip:201@pbx',
      '--gpu-launcher=calc.exe',
      '--renderer-cmd-prefix=sh -c id',
      'tel', // no colon
      '',
    ]) {
      expect(linkFromArgv([exe, '--', hostile]), hostile).toBeUndefined();
    }
  });

  it('refuses over-long links and links with control characters', () => {
    const long = 'tel:' + '1'.repeat(MAX_LINK_LENGTH);
    expect(linkFromArgv([exe, '--', long])).toBeUndefined();
    expect(linkFromArgv([exe, '--', 'tel:' + '1'.repeat(MAX_LINK_LENGTH - 4)])).toBeDefined();
    expect(linkFromArgv([exe, '--', 'tel:123\nforged log line'])).toBeUndefined();
    expect(linkFromArgv([exe, '--', 'tel:123\u0000'])).toBeUndefined();
  });

  it('trims the whitespace some launchers add', () => {
    expect(linkFromArgv([exe, '--', '  tel:201 '])).toBe('tel:201');
  });
});

describe('linkFromOpenUrl (macOS open-url)', () => {
  it('accepts tel:/callto: only', () => {
    expect(linkFromOpenUrl('tel:+4930123456')).toBe('tel:+4930123456');
    expect(linkFromOpenUrl('callto://+4930123456')).toBe('callto://+4930123456');
    expect(linkFromOpenUrl('callbar://dial?n=1')).toBeUndefined();
    expect(linkFromOpenUrl('https://example.com')).toBeUndefined();
  });

  it('shares the same rules as the command line', () => {
    expect(isDialLink('tel:' + '9'.repeat(600))).toBe(false);
  });
});

describe('a launch link through the real core, with "dial phone links without asking" on', () => {
  let core: CallbarCore;
  beforeAll(async () => {
    core = await startTestCore({ env: { CALLBAR_CONFIRM_WEB_LINKS: 'false' } });
  });
  afterAll(() => core.close());
  const pending = async () => {
    const listed = await core.router.invoke('calls.list', {});
    return listed.ok ? (listed.value as CallsSnapshot).pending : undefined;
  };

  it('`callbar -- tel:911` brings the window up to ask: it is the emergency number', async () => {
    const link = linkFromArgv([exe, '--', 'tel:911'])!;
    expect(await openDialLink(core.router, link)).toMatchObject({
      showWindow: true,
      answer: { ok: true, status: 'asking', display: 'Emergency 911' },
    });
    expect(await pending()).toMatchObject({
      target: { destination: '911', class: 'emergency', country: 'US' },
      reason: expect.stringMatching(/^This is an emergency number in the United States/) as string,
    });
  });

  it('a service code is never dialled from a link: a notice says why, nothing waits', async () => {
    const before = await pending();
    const link = linkFromArgv([exe, '--', 'tel:*21*0301234567%23'])!;
    const plan = await openDialLink(core.router, link);
    expect(plan).toMatchObject({
      showWindow: false,
      notice: {
        title: 'Callbar could not dial the link',
        body: expect.stringContaining('never dials a service code from a link') as string,
      },
    });
    expect(await pending()).toEqual(before);
  });
});
