import { describe, expect, it } from 'vitest';
import type { CallbarEvent } from '../../../../src-shared/contract';
import {
  NotificationPlanner,
  plainNotification,
} from '../../../../src-main/core/desktop/notification-planner';
import { call, snapshot } from '../../../support/desktop-fixtures';

/** How a notification isolates a name (first-strong) and a number (left to right). */
const name = (text: string) => `\u2068${text}\u2069`;
const num = (text: string) => `\u2066${text}\u2069`;

const callsChanged = (calls: ReturnType<typeof snapshot>): CallbarEvent => ({
  type: 'calls.changed',
  calls,
});
const accountChanged = (state: 'connected' | 'needs-activation' | 'offline'): CallbarEvent => ({
  type: 'account.changed',
  status: { state },
});

describe('NotificationPlanner', () => {
  it('announces an incoming call once, with the caller the directory found', () => {
    const planner = new NotificationPlanner();
    const incoming = call({
      state: 'ringing',
      direction: 'incoming',
      party: {
        number: '+4930123456',
        display: '+49 30 123456',
        name: 'Anna Meier',
        company: 'Acme',
      },
    });
    expect(planner.plan(callsChanged(snapshot({ current: [incoming] })))).toEqual([
      {
        title: 'Incoming call',
        body: `${name('Anna Meier')} (${name('Acme')}) — ${num('+49 30 123456')}`,
        onClick: 'open',
      },
    ]);
    expect(
      planner.plan(callsChanged(snapshot({ current: [{ ...incoming, state: 'connected' }] }))),
    ).toEqual([]);
    // An unknown caller is shown by number.
    const unknown = call({ state: 'ringing', direction: 'incoming' });
    expect(planner.plan(callsChanged(snapshot({ current: [unknown] })))[0]?.body).toBe(
      num('+49 30 123456'),
    );
  });

  it('does not announce outgoing calls', () => {
    const planner = new NotificationPlanner();
    expect(planner.plan(callsChanged(snapshot({ current: [call({ state: 'dialing' })] })))).toEqual(
      [],
    );
  });

  it('announces a failed dial once, with the reason', () => {
    const planner = new NotificationPlanner();
    const failed = call({
      state: 'failed',
      reason: 'The number is not allowed by your call policy.',
    });
    const first = planner.plan(callsChanged(snapshot({ recent: [failed] })));
    expect(first).toEqual([
      {
        title: 'Call failed',
        body: `Could not call ${num('+49 30 123456')}: The number is not allowed by your call policy.`,
        onClick: 'open',
      },
    ]);
    expect(planner.plan(callsChanged(snapshot({ recent: [failed] })))).toEqual([]);
  });

  it('says "Reconnect Callbar" when the session expires, once per expiry', () => {
    const planner = new NotificationPlanner();
    planner.seed({ account: 'connected' });
    expect(planner.plan(accountChanged('needs-activation'))).toEqual([
      expect.objectContaining({ title: 'Reconnect Callbar', onClick: 'connect' }),
    ]);
    expect(planner.plan(accountChanged('needs-activation'))).toEqual([]);
    expect(planner.plan(accountChanged('connected'))).toEqual([]);
    expect(planner.plan(accountChanged('needs-activation'))).toHaveLength(1);
  });

  it('announces a connection to a different account than before once, not one there at start-up', () => {
    const switched = (message: string): CallbarEvent => ({
      type: 'account.changed',
      status: {
        state: 'connected',
        tenant_id: 't1',
        user_extension: '202',
        account_switch: { tenant_id: 't1', user_extension: '201', connected_at: '', message },
      },
    });
    const planner = new NotificationPlanner();
    planner.seed({ account: 'connected' });
    expect(planner.plan(switched('Callbar is now connected to extension 202 …'))).toEqual([
      {
        title: 'Callbar is connected to another account',
        body: 'Callbar is now connected to extension 202 …',
        onClick: 'open',
      },
    ]);
    expect(planner.plan(switched('Callbar is now connected to extension 202 …'))).toEqual([]);
    expect(planner.plan(accountChanged('connected'))).toEqual([]);
    expect(planner.plan(switched('Callbar is now connected to extension 203 …'))).toHaveLength(1);

    const restarted = new NotificationPlanner();
    restarted.seed({ account: 'connected', accountSwitch: 'Callbar is now connected to x' });
    expect(restarted.plan(switched('Callbar is now connected to x'))).toEqual([]);
  });

  it('stays quiet about what was already there at start-up', () => {
    const planner = new NotificationPlanner();
    const old = [call({ state: 'failed' }), call({ state: 'ringing', direction: 'incoming' })];
    planner.seed({
      account: 'needs-activation',
      calls: snapshot({ recent: [old[0]!], current: [old[1]!] }),
    });
    expect(planner.plan(callsChanged(snapshot({ recent: [old[0]!], current: [old[1]!] })))).toEqual(
      [],
    );
    expect(planner.plan(accountChanged('needs-activation'))).toEqual([]);
  });

  it('announces each failed call once over many snapshots', () => {
    const planner = new NotificationPlanner();
    for (let i = 0; i < 1000; i++) {
      planner.plan(callsChanged(snapshot({ recent: [call({ state: 'failed' })] })));
    }
    // A new failure is still announced after a thousand others; re-sending it stays quiet.
    const last = call({ state: 'failed' });
    expect(planner.plan(callsChanged(snapshot({ recent: [last] })))).toHaveLength(1);
    expect(planner.plan(callsChanged(snapshot({ recent: [last] })))).toHaveLength(0);
  });

  it('ignores other events', () => {
    const planner = new NotificationPlanner();
    expect(planner.plan({ type: 'app.notice', level: 'error', message: 'x' })).toEqual([]);
  });
});

describe('plainNotification', () => {
  const hostile = call({
    state: 'ringing',
    direction: 'incoming',
    party: {
      number: '+14155550121',
      display: '+1 415-555-0121',
      name: 'Eve <a href="https://evil.example/">Bank</a> & <b>IT</b>\u2069\u202e1210\nForged line',
      company: 'R&D\u001b[2J',
    },
  });
  const planned = () =>
    new NotificationPlanner().plan(callsChanged(snapshot({ current: [hostile] })))[0]!;

  it('escapes markup on Linux, where notification servers read the body as markup', () => {
    expect(plainNotification(planned(), 'linux')).toEqual({
      title: 'Incoming call',
      body:
        '\u2068Eve &lt;a href="https://evil.example/"&gt;Bank&lt;/a&gt; &amp; &lt;b&gt;IT&lt;/b&gt;' +
        '\\u2069\\u202e1210\\u000aForged line\u2069 (\u2068R&amp;D\\u001b[2J\u2069) — \u2066+1 415-555-0121\u2069',
      onClick: 'open',
    });
  });

  it('is the text as written on macOS and Windows, which show plain text', () => {
    for (const platform of ['darwin', 'win32'] as const) {
      const { body } = plainNotification(planned(), platform);
      expect(body).toContain(
        '\u2068Eve <a href="https://evil.example/">Bank</a> & <b>IT</b>\\u2069',
      );
      expect(body.endsWith('\u2066+1 415-555-0121\u2069')).toBe(true);
    }
  });

  it('keeps every notice one line, its isolates balanced, whoever built it', () => {
    const notice = plainNotification(
      { title: 'Nothing\nto dial\u0007', body: '\u2069"\u202e1234" \u2068is not\r a number' },
      'darwin',
    );
    expect(notice).toEqual({
      title: 'Nothing\\u000ato dial\\u0007',
      body: '\\u2069"\\u202e1234" \u2068is not\\u000d a number\u2069',
    });
  });
});
