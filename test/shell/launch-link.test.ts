import { describe, expect, it } from 'vitest';
import {
  isDialLink,
  linkFromArgv,
  linkFromOpenUrl,
  MAX_LINK_LENGTH,
} from '../../src-main/core/desktop/launch-link';

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
