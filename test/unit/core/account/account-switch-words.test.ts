/**
 * The switch banner's sentence names what changed (issue 27): the same extension and tenant on
 * another platform address is said as such, never "extension 201, not extension 201".
 */
import { describe, expect, it } from 'vitest';
import { accountSwitch, afterConnection } from '../../../../src-main/core/account/account-history';

const at = '2026-11-25T10:00:00.000Z';
const first = {
  tenant_id: 'acme',
  user_extension: '201',
  base_url: 'http://127.0.0.1:41001',
  connected_at: at,
};

describe('the account switch sentence', () => {
  it('the same account on the same platform: no switch at all', () => {
    const history = afterConnection(first, { ...first, connected_at: '2026-11-25T11:00:00.000Z' });
    expect(accountSwitch(history, first)).toBeUndefined();
  });

  it('the same platform written with a trailing slash or in capitals is the same platform', () => {
    const written = { ...first, base_url: 'HTTP://127.0.0.1:41001/' };
    expect(accountSwitch(afterConnection(first, written), written)).toBeUndefined();
  });

  it('the same extension and tenant on another platform names both addresses', () => {
    const moved = { ...first, base_url: 'http://127.0.0.1:42002' };
    const history = afterConnection(first, moved);
    const message = accountSwitch(history, moved)!.message;
    expect(message).toBe(
      'Callbar is now connected to extension 201 (acme) on the platform at http://127.0.0.1:42002, not at http://127.0.0.1:41001 as before. If you did not connect it to this account yourself, disconnect Callbar and connect it again.',
    );
    expect(message).not.toMatch(/extension 201.*not to extension 201/);
  });

  it('another extension of the same tenant is said by its number', () => {
    const bob = { ...first, user_extension: '202' };
    const message = accountSwitch(afterConnection(first, bob), bob)!.message;
    expect(message).toMatch(
      /^Callbar is now connected to extension 202 \(acme\), not to extension 201 as before\./,
    );
  });
});
