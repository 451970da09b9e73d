import { describe, expect, it } from 'vitest';
import {
  isAllowedExternalUrl,
  isConnectLink,
  refusedExternalUrl,
} from '../../../../src-main/core/desktop/external-url';

describe('the openExternal allow-list', () => {
  const portal = 'https://portal.example.com/portal';

  it('allows https URLs of the configured portal origin', () => {
    expect(
      isAllowedExternalUrl(
        'https://portal.example.com/portal/integrations/callbar/activate?x=1',
        portal,
      ),
    ).toBe(true);
    expect(isAllowedExternalUrl('https://portal.example.com/help', portal)).toBe(true);
  });

  it('refuses everything else', () => {
    for (const url of [
      'http://portal.example.com/portal', // downgraded
      'https://portal.example.com.evil.test/portal',
      'https://evil.test/?https://portal.example.com',
      'https://portal.example.com:8443/portal', // another port is another origin
      'https://user:pass@portal.example.com/portal',
      'file:///C:/Windows/System32/calc.exe',
      'smb://attacker/share',
      'ms-msdt:/id PCWDiagnostic',
      'javascript:alert(1)',
      'tel:+4930123',
      'not a url',
      '',
    ]) {
      expect(isAllowedExternalUrl(url, portal), url).toBe(false);
    }
  });

  it('allows plain http only for a portal on this computer', () => {
    expect(
      isAllowedExternalUrl('http://127.0.0.1:8089/portal/x', 'http://127.0.0.1:8089/portal'),
    ).toBe(true);
    expect(isAllowedExternalUrl('http://localhost:8089/x', 'http://localhost:8089/portal')).toBe(
      true,
    );
    expect(isAllowedExternalUrl('http://portal.lan/x', 'http://portal.lan/portal')).toBe(false);
    expect(isAllowedExternalUrl('http://127.0.0.1:9999/x', 'http://127.0.0.1:8089/portal')).toBe(
      false,
    );
  });

  it('says why without repeating the path or query (they may carry a code)', () => {
    const message = refusedExternalUrl('https://evil.test/steal?code=s3cr3t');
    expect(message).toContain('https://evil.test');
    expect(message).not.toContain('s3cr3t');
    expect(refusedExternalUrl('::')).toContain('unreadable');
  });
});

describe("the core's connect link", () => {
  const nonce = 'q1w2e3r4t5y6u7i8o9p0-_AbCdEfGhIjKlMnOpQrStU';

  it('is allowed only as http://127.0.0.1:<receiver port>/connect/<nonce>', () => {
    expect(isConnectLink(`http://127.0.0.1:37153/connect/${nonce}`, 37153)).toBe(true);
    for (const url of [
      `http://127.0.0.1:40000/connect/${nonce}`, // another port: not our receiver
      `http://localhost:37153/connect/${nonce}`,
      `https://127.0.0.1:37153/connect/${nonce}`,
      `http://127.0.0.1:37153/connect/${nonce}?next=https://evil.test`,
      `http://127.0.0.1:37153/connect/${nonce}#x`,
      `http://127.0.0.1:37153/connect/`,
      `http://127.0.0.1:37153/connect/../activate`,
      `http://127.0.0.1:37153/activate?confirmation_key=x`,
      `http://user@127.0.0.1:37153/connect/${nonce}`,
      'https://portal.example.com/portal',
      'not a url',
    ]) {
      expect(isConnectLink(url, 37153), url).toBe(false);
    }
  });
});
