import { describe, expect, it } from 'vitest';
import { clientAddress } from '../../../relay/client-address';

describe('clientAddress', () => {
  it('is an IPv4 address itself', () => {
    expect(clientAddress('203.0.113.9')).toBe('203.0.113.9');
  });

  it('is an IPv6 address’s /64, however it is written', () => {
    const line = '2001:db8:7:9::/64';
    for (const ip of [
      '2001:db8:7:9::1',
      '2001:0db8:0007:0009:ffff:ffff:ffff:ffff',
      '2001:db8:7:9:a:b:c:d',
      '2001:DB8:7:9::',
      '2001:db8:7:9::1%eth0',
    ]) {
      expect(clientAddress(ip), ip).toBe(line);
    }
    expect(clientAddress('2001:db8:7:a::1')).toBe('2001:db8:7:a::/64');
    expect(clientAddress('::1')).toBe('0:0:0:0::/64');
    expect(clientAddress('fe80::1:2:3:4')).toBe('fe80:0:0:0::/64');
  });

  it('is the IPv4 address an IPv4-mapped IPv6 address stands for', () => {
    expect(clientAddress('::ffff:203.0.113.9')).toBe('203.0.113.9');
    expect(clientAddress('::ffff:cb00:7109')).toBe('203.0.113.9');
  });

  it('leaves what is no address as it is', () => {
    expect(clientAddress('')).toBe('');
    expect(clientAddress('not-an-ip')).toBe('not-an-ip');
  });
});
