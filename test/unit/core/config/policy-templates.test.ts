import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { parse as parsePlist } from 'plist';
import { describe, expect, it } from 'vitest';
import { mergeLayers } from '../../../../src-main/core/config/policy/policies';
import {
  ADML_LANGUAGES,
  policyAdml,
  policyRule,
  policyTemplates,
  policyTitle,
} from '../../../../src-main/core/config/policy/policy-templates';
import { POLICY_NAMES, policyKind } from '../../../../src-main/core/config/policy/policy-schema';
import { translatorFor } from '../../../../src-main/core/text/translators';

const root = join(import.meta.dirname, '../../../../resources/policy');
const templates = policyTemplates();
const file = (path: string) => readFileSync(join(root, path), 'utf8');

const xml = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  isArray: () => false,
});

interface Adml {
  policyDefinitionResources: {
    description: string;
    resources: {
      stringTable: { string: { id: string; '#text': string }[] };
      presentationTable: { presentation: { id: string }[] };
    };
  };
}

/** An ADML's strings by id, as Group Policy reads them (entities decoded). */
function admlStrings(text: string): Map<string, string> {
  const adml = xml.parse(text) as Adml;
  return new Map(
    adml.policyDefinitionResources.resources.stringTable.string.map((s) => [s.id, s['#text']]),
  );
}

interface AdmxPolicy {
  name: string;
  key: string;
  valueName?: string;
  presentation?: string;
  elements?: Record<string, { id: string; valueName?: string; key?: string }>;
}

describe('the administrators’ templates', () => {
  it('in the repository are what the schema generates (run `npm run policy-templates`)', () => {
    for (const [path, text] of Object.entries(templates)) {
      expect(file(path), `resources/policy/${path}`).toBe(text);
    }
  });

  it('ADMX and ADML are well-formed XML and define every policy, locked and recommended', () => {
    const admxText = templates['windows/callbar.admx']!;
    const admlText = templates['windows/en-US/callbar.adml']!;
    expect(XMLValidator.validate(admxText)).toBe(true);
    expect(XMLValidator.validate(admlText)).toBe(true);
    const admx = xml.parse(admxText) as {
      policyDefinitions: { policies: { policy: AdmxPolicy[] } };
    };
    const adml = xml.parse(admlText) as {
      policyDefinitionResources: {
        resources: {
          stringTable: { string: { id: string }[] };
          presentationTable: { presentation: { id: string }[] };
        };
      };
    };
    const policies = new Map(
      admx.policyDefinitions.policies.policy.map((policy) => [policy.name, policy]),
    );
    const strings = new Set(
      adml.policyDefinitionResources.resources.stringTable.string.map((s) => s.id),
    );
    const presentations = new Set(
      adml.policyDefinitionResources.resources.presentationTable.presentation.map((p) => p.id),
    );
    expect(policies.size).toBe(POLICY_NAMES.length * 2);
    for (const name of POLICY_NAMES) {
      const locked = policies.get(name)!;
      const recommended = policies.get(`${name}_recommended`)!;
      expect(locked.key).toBe('Software\\Policies\\Callbar');
      expect(recommended.key).toBe('Software\\Policies\\Callbar\\Recommended');
      expect(strings.has(name) && strings.has(`${name}_explain`), name).toBe(true);
      if (policyKind(name).kind === 'boolean') {
        expect(locked.valueName).toBe(name);
      } else {
        expect(locked.presentation).toBe(`$(presentation.${name})`);
        expect(presentations.has(name), name).toBe(true);
      }
    }
  });

  it('has an ADML per language (en-US, de-DE) with the same strings and presentations', () => {
    expect(Object.values(ADML_LANGUAGES)).toEqual(['en-US', 'de-DE']);
    const [english, german] = (['en-US', 'de-DE'] as const).map(
      (folder) => templates[`windows/${folder}/callbar.adml`]!,
    );
    expect(XMLValidator.validate(german!)).toBe(true);
    const ids = (text: string) => {
      const { resources } = (xml.parse(text) as Adml).policyDefinitionResources;
      return {
        strings: resources.stringTable.string.map((s) => s.id),
        presentations: resources.presentationTable.presentation.map((p) => p.id),
      };
    };
    expect(ids(german!)).toEqual(ids(english!));
  });

  it('words the German ADML from the German catalog, every text intact after XML parsing', () => {
    const t = translatorFor('de', 'policy');
    const strings = admlStrings(templates['windows/de-DE/callbar.adml']!);
    expect(strings.get('callbar')).toBe('Callbar (festgelegt: Benutzer können diese nicht ändern)');
    expect(strings.get('language')).toBe('Sprache von Callbar');
    for (const name of POLICY_NAMES) {
      expect(strings.get(name)).toBe(policyTitle(t, name));
      expect(strings.get(name)).not.toBe(policyTitle(translatorFor('en', 'policy'), name));
      // Quotes („…“ and "…") survive the escaping.
      expect(strings.get(`${name}_explain`)).toContain(`„${name}“: ${policyRule(t, name)}.`);
    }
  });

  it('escapes every text it writes into XML', () => {
    const hostile = '<b>&amp; "x" \'y\' </string><string id="z">';
    const t = Object.assign(() => hostile, { locale: 'en' as const, has: () => true });
    const text = policyAdml(t);
    expect(XMLValidator.validate(text)).toBe(true);
    const strings = admlStrings(text);
    expect(strings.get('base_url')).toBe(hostile);
    expect(strings.has('z')).toBe(false);
    expect((xml.parse(text) as Adml).policyDefinitionResources.description).toBe(hostile);
  });

  it('every example (Linux JSON, macOS profile) sets every policy, and each is valid', () => {
    const json = JSON.parse(templates['linux/policies.example.json']!) as {
      locked: Record<string, unknown>;
      recommended: Record<string, unknown>;
    };
    expect(Object.keys({ ...json.locked, ...json.recommended }).sort()).toEqual(
      [...POLICY_NAMES].sort(),
    );
    const fromJson = mergeLayers([
      { origin: 'example.json', level: 'locked', values: json.locked },
      { origin: 'example.json', level: 'recommended', values: json.recommended },
    ]);
    expect(fromJson.problems).toEqual([]);

    const profile = parsePlist(templates['macos/com.callbar.desktop.mobileconfig']!) as {
      PayloadContent: Record<string, unknown>[];
    };
    const { Recommended, ...payload } = profile.PayloadContent[0]!;
    const locked = Object.fromEntries(
      Object.entries(payload).filter(([key]) => !key.startsWith('Payload')),
    );
    const fromPlist = mergeLayers([
      { origin: 'profile', level: 'locked', values: locked },
      { origin: 'profile', level: 'recommended', values: Recommended as Record<string, unknown> },
    ]);
    expect(fromPlist.problems).toEqual([]);
    expect(fromPlist).toEqual(
      mergeLayers([
        { origin: 'profile', level: 'locked', values: json.locked },
        { origin: 'profile', level: 'recommended', values: json.recommended },
      ]),
    );
  });
});
