/**
 * CRM address templates: what a template may be (https only, known placeholders, none in the
 * host, no credentials, no control characters) and what address it gives for hostile values.
 */
import { describe, expect, it } from 'vitest';
import {
  crmAddress,
  crmLinkLabel,
  crmTemplateProblem,
  crmUrl,
  isCrmUrl,
  MAX_URL_CHARS,
  MAX_VALUE_CHARS,
} from '../../../../src-main/core/crm/crm-template';
import { loadSettings } from '../../../../src-main/core/config/settings-store';
import { Settings } from '../../../../src-main/core/config/settings';
import { crmTemplateProblemSaid } from '../../../../src-main/core/config/crm-template-rule';
import { sayWith } from '../../../../src-main/core/text/said';
import { englishFor, sayAgain, translatorFor } from '../../../../src-main/core/text/translators';
import { describeSettingsIssues } from '../../../../src-main/core/config/settings-issues';

const SEARCH = 'https://crm.example.com/search?phone={e164}&who={name}';

describe('crm templates', () => {
  it('accepts https templates with the known placeholders', () => {
    for (const template of [
      SEARCH,
      'https://crm.example.com/c/{number}/{extension}#{company}',
      'https://crm.example.com:8443/',
    ]) {
      expect(crmTemplateProblem(template)).toBeUndefined();
    }
  });

  it.each([
    ['javascript:alert(1)//{e164}', /must start with https:\/\//],
    ['data:text/html,<script>alert(1)</script>', /must start with https:\/\//],
    ['http://crm.example.com/?p={e164}', /must start with https:\/\//],
    ['file:///etc/passwd', /must start with https:\/\//],
    ['https://crm.example.com/?p={e164}\r\nX-Injected: 1', /control character/],
    ['https://user:secret@crm.example.com/?p={e164}', /user name or password/],
    ['https://{company}.example.com/', /part of the host/],
    ['https://crm.example.com{e164}/', /part of the host/],
    ['https://crm.example.com/?p={phone}', /\{phone\} is not a placeholder/],
    ['https://crm.example.com/?p={e164', /\{ or \}/],
    ['https://crm.example.com/?p=' + 'x'.repeat(1200), /longer than/],
    ['https://', /not a valid address|https:\/\/ address/],
    ['https://crm.example.com\\@attacker.example/{name}', /backslash/],
  ])('refuses template %#', (template, problem) => {
    expect(crmTemplateProblem(template)).toMatch(problem);
  });

  it('URL-encodes every value so it cannot leave its place or the host', () => {
    const url = crmUrl(SEARCH, {
      e164: '+4930123456',
      name: 'Eve/../admin?x=1#frag&y=2\r\nSet-Cookie: a=b',
    })!;
    expect(url).toBe(
      'https://crm.example.com/search?phone=%2B4930123456&who=Eve%2F..%2Fadmin%3Fx%3D1%23frag%26y%3D2%20%20Set-Cookie%3A%20a%3Db',
    );
    const parsed = new URL(url);
    expect(parsed.origin).toBe('https://crm.example.com');
    expect([...parsed.searchParams.keys()]).toEqual(['phone', 'who']);
    // A missing value is empty, not "undefined".
    expect(crmUrl(SEARCH, { e164: '+1' })).toBe('https://crm.example.com/search?phone=%2B1&who=');
  });

  it('refuses a value that would be a step in the path ("." or ".."), which encoding leaves as it is', () => {
    const place = 'https://crm.example.com/tenants/acme/contacts/{name}/calls?from={number}';
    // Before: https://crm.example.com/tenants/acme/contacts/../calls, which the browser opens as
    // /tenants/acme/calls (a coworker named a contact "..").
    expect(crmAddress(place, { name: '..' })).toEqual({ problem: 'path-step' });
    expect(crmAddress(place, { name: '.' })).toEqual({ problem: 'path-step' });
    const twoValues = 'https://crm.example.com/a/b/{name}{company}/c';
    expect(crmAddress(twoValues, { name: '.', company: '.' })).toEqual({ problem: 'path-step' });
    // In the query, or within a segment, a dot is only a dot.
    expect(crmUrl(SEARCH, { e164: '+1', name: '..' })).toBe(
      'https://crm.example.com/search?phone=%2B1&who=..',
    );
    expect(new URL(crmUrl(place, { name: '...' })!).pathname).toBe(
      '/tenants/acme/contacts/.../calls',
    );
    expect(new URL(crmUrl(place, { name: '%2e%2e' })!).pathname).toBe(
      '/tenants/acme/contacts/%252e%252e/calls',
    );
  });

  it('cuts huge values and refuses an address that would still be too long', () => {
    const url = crmUrl('https://crm.example.com/?n={name}', { name: 'é'.repeat(100_000) })!;
    expect(decodeURIComponent(new URL(url).searchParams.get('n')!)).toHaveLength(MAX_VALUE_CHARS);
    const many = 'https://crm.example.com/?' + '{name}'.repeat(150);
    expect(crmTemplateProblem(many)).toBeUndefined();
    expect(crmUrl(many, { name: '€'.repeat(MAX_VALUE_CHARS) })).toBeUndefined();
    expect(crmUrl(many, { name: 'a' })!.length).toBeLessThan(MAX_URL_CHARS);
  });

  it('allows the browser only addresses at a configured template origin', () => {
    expect(isCrmUrl('https://crm.example.com/anything?x=1', [SEARCH])).toBe(true);
    expect(isCrmUrl('https://crm.example.com.evil.test/', [SEARCH])).toBe(false);
    expect(isCrmUrl('http://crm.example.com/', [SEARCH])).toBe(false);
    expect(isCrmUrl('https://a:b@crm.example.com/', [SEARCH])).toBe(false);
    expect(isCrmUrl('javascript:alert(1)', [SEARCH])).toBe(false);
    expect(isCrmUrl('https://crm.example.com/', ['javascript:x'])).toBe(false);
    expect(isCrmUrl('https://crm.example.com/', [])).toBe(false);
    expect(crmLinkLabel(SEARCH)).toBe('crm.example.com');
  });

  it('is a setting whose refusal names the template and what is wrong with it', () => {
    const parsed = Settings.safeParse({ crm_links: [SEARCH, 'http://crm.example.com/?p={e164}'] });
    expect(parsed.success).toBe(false);
    const { problems, fields } = describeSettingsIssues(parsed.error!, {});
    expect(problems.map((problem) => sayWith(englishFor('errors'), problem))).toEqual([
      '"crm_links": "http://crm.example.com/?p={e164}": it must start with https:// (other kinds of address, such as http:, javascript: or data:, are not opened)',
    ]);
    expect(fields.crm_links).toMatch(/^"http:\/\/crm.example.com\/\?p=\{e164\}": it must start/);
    // In German, the whole sentence: the problem too (it was English inside a German sentence).
    const german = translatorFor('de', 'errors');
    expect(problems.map((problem) => sayWith(german, problem))).toEqual([
      '„crm_links“: "http://crm.example.com/?p={e164}": sie muss mit https:// beginnen (andere Arten von Adressen, etwa http:, javascript: oder data:, werden nicht geöffnet)',
    ]);
    expect(sayAgain(german, fields.crm_links!)).toBe(
      '"http://crm.example.com/?p={e164}": sie muss mit https:// beginnen (andere Arten von Adressen, etwa http:, javascript: oder data:, werden nicht geöffnet).',
    );
    expect(sayWith(german, crmTemplateProblemSaid('https://crm.example.com/?p={e164')!)).toBe(
      'sie enthält eine { oder }, die zu keinem Platzhalter gehört',
    );
    expect(Settings.parse({}).crm_links).toEqual([]);
    expect(Settings.parse({}).crm_open_on_connect).toBe(false);
    // From the environment: a comma-separated list, each template checked.
    expect(() =>
      loadSettings({ dataDir: '/nonexistent-callbar', env: { CALLBAR_CRM_LINKS: 'data:x' } }),
    ).toThrow(/CALLBAR_CRM_LINKS/);
  });
});
