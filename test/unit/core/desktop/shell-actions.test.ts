import { describe, expect, it } from 'vitest';
import {
  channelNames,
  type DialTarget,
  type ParsedRequestOf,
} from '../../../../src-shared/contract';
import { CallbarError } from '../../../../src-main/core/errors';
import { Router, type Handlers } from '../../../../src-main/core/ipc/router';
import { silentLogger } from '../../../../src-main/core/log/logger';
import {
  clipboardCandidate,
  dialFromTray,
  openDialLink,
  planClipboardDial,
  searchPrefill,
} from '../../../../src-main/core/desktop/shell-actions';
import { call } from '../../../support/desktop-fixtures';

/**
 * A real Router (so the contract's schemas check every request and answer) whose calls handlers
 * stand in for the calls module: digits dial, anything else is not a number. Every request that
 * reaches a handler is recorded.
 */
function routerWithCalls(options: { confirmLinks: boolean }) {
  const seen: { channel: string; request: unknown }[] = [];
  const unused = () => {
    throw new CallbarError('not_available', 'Not part of this test.');
  };
  const parse = (input: string): DialTarget => {
    const digits = input.replace(/^(tel|callto):(\/\/)?/i, '').replace(/[\s()-]/g, '');
    if (!/^\+?\d{2,15}$/.test(digits)) {
      throw new CallbarError('not_a_number', `"${input}" is not a phone number Callbar can dial.`);
    }
    return {
      destination: digits,
      display: digits,
      kind: digits.startsWith('+') ? 'external' : 'extension',
      class: digits.startsWith('+') ? 'national' : 'extension',
      description: 'A number for this test.',
    };
  };
  const handlers = {
    ...Object.fromEntries(channelNames.map((channel) => [channel, unused])),
    'calls.parse': (request: ParsedRequestOf<'calls.parse'>) => {
      seen.push({ channel: 'calls.parse', request });
      return parse(request.input);
    },
    'calls.openUrl': (request: ParsedRequestOf<'calls.openUrl'>) => {
      seen.push({ channel: 'calls.openUrl', request });
      const target = parse(request.url);
      return options.confirmLinks
        ? {
            status: 'needs-confirmation',
            pending: { id: 'p1', target, source: 'tel-link', link: request.url },
          }
        : { status: 'dialing', call: call({ state: 'dialing', source: 'tel-link' }), target };
    },
    'calls.dial': (request: ParsedRequestOf<'calls.dial'>) => {
      seen.push({ channel: 'calls.dial', request });
      const target = parse(request.target);
      return {
        status: 'dialing',
        call: call({ state: 'dialing', source: request.source }),
        target,
      };
    },
  } as unknown as Handlers;
  return { router: new Router(handlers, silentLogger), seen };
}

describe('a tel: link from the OS', () => {
  it('goes to calls.openUrl; a dial waiting for a yes brings the window up', async () => {
    const { router, seen } = routerWithCalls({ confirmLinks: true });
    expect(await openDialLink(router, 'tel:+4930123456')).toMatchObject({
      showWindow: true,
      answer: { ok: true, status: 'asking' },
    });
    expect(seen).toEqual([{ channel: 'calls.openUrl', request: { url: 'tel:+4930123456' } }]);
  });

  it('a link that dials at once needs no window', async () => {
    const { router } = routerWithCalls({ confirmLinks: false });
    expect(await openDialLink(router, 'tel:201')).toMatchObject({
      showWindow: false,
      answer: { ok: true, status: 'dialing' },
    });
  });

  it('a link the calls module refuses becomes a notice with its sentence', async () => {
    const { router } = routerWithCalls({ confirmLinks: true });
    expect(await openDialLink(router, 'tel:call-me-maybe')).toEqual({
      showWindow: false,
      notice: {
        title: 'Callbar could not dial the link',
        body: '"tel:call-me-maybe" is not a phone number Callbar can dial.',
      },
      answer: {
        ok: false,
        error: {
          code: 'not_a_number',
          message: '"tel:call-me-maybe" is not a phone number Callbar can dial.',
        },
      },
    });
  });
});

describe('Dial clipboard', () => {
  it('takes the first non-empty line, trimmed, and nothing over-long', () => {
    expect(clipboardCandidate('\n\n  +49 30 123456  \nsecond line')).toBe('+49 30 123456');
    expect(clipboardCandidate('   \n\t')).toBeUndefined();
    expect(clipboardCandidate('1'.repeat(513))).toBeUndefined();
  });

  it('asks before dialing a parsed number, then dials it from the tray', async () => {
    const { router, seen } = routerWithCalls({ confirmLinks: true });
    const plan = await planClipboardDial(router, ' +4930123456\n');
    expect(plan).toMatchObject({
      kind: 'confirm',
      message: 'Call \u2066+4930123456\u2069?',
      detail:
        'A number for this test. Dials \u2066+4930123456\u2069.\nCopied from the clipboard. Your phone rings first, then Callbar connects you.',
    });
    expect(seen).toEqual([{ channel: 'calls.parse', request: { input: '+4930123456' } }]);
    expect(
      plan.kind === 'confirm' && (await dialFromTray(router, plan.target.destination)),
    ).toBeUndefined();
    expect(seen[1]).toEqual({
      channel: 'calls.dial',
      request: { target: '+4930123456', source: 'tray' },
    });
  });

  it('says so when the clipboard holds no number (without asking the core for an empty one)', async () => {
    const { router, seen } = routerWithCalls({ confirmLinks: true });
    expect(await planClipboardDial(router, '')).toMatchObject({
      kind: 'error',
      notice: { title: 'Nothing to dial' },
    });
    expect(seen).toEqual([]);
    const words = await planClipboardDial(router, 'Meeting notes');
    expect(words).toEqual({
      kind: 'error',
      notice: {
        title: 'Nothing to dial',
        body: '"Meeting notes" is not a phone number Callbar can dial.',
      },
    });
  });

  it('a refused dial becomes a notice', async () => {
    const { router } = routerWithCalls({ confirmLinks: true });
    expect(await dialFromTray(router, 'abc')).toEqual({
      title: 'Callbar could not dial',
      body: '"abc" is not a phone number Callbar can dial.',
    });
  });
});

describe('global shortcut prefill', () => {
  it('prefills the search with a number from the clipboard, else nothing', async () => {
    const { router } = routerWithCalls({ confirmLinks: true });
    expect(await searchPrefill(router, '(030) 123-456')).toBe('030123456');
    expect(await searchPrefill(router, 'Dear Anna,')).toBe('');
    expect(await searchPrefill(router, '')).toBe('');
  });
});
