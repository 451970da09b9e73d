/**
 * The administrators' templates, generated from the policy schema (never edited by hand):
 * Windows ADMX + one ADML per language, en-US and de-DE (each policy twice: locked under
 * `Software\Policies\Callbar`, recommended under its `Recommended` subkey; the titles and
 * explanations from the `policy` catalogs), a macOS configuration profile and a Linux
 * policies.json example (English), each with every policy. `npm run policy-templates` writes them under
 * resources/policy/; a test checks the files there are what this generates.
 */
import { build as buildPlist, type PlistValue } from 'plist';
import type { CatalogLocale } from '../../../../src-shared/i18n/locales';
import { packageInfo } from '../../package-info';
import { sayWith, type Translate } from '../../text/said';
import { translatorFor } from '../../text/translators';
import { POLICY_DOMAIN } from './policy-location';
import {
  POLICY_NAMES,
  POLICY_RULES,
  PolicySettings,
  policyKind,
  type PolicyName,
} from './policy-schema';
import { POLICY_KEY } from './registry-policy';

/** The ADML languages: Callbar's catalog locale → the Windows language folder beside the ADMX. */
export const ADML_LANGUAGES: Record<CatalogLocale, string> = { en: 'en-US', de: 'de-DE' };

/** Values for the examples where a policy has no default. */
const EXAMPLES: Partial<Record<PolicyName, unknown>> = {
  base_url: 'https://pbx.example.com',
  portal_url: 'https://pbx.example.com/portal',
  client_id: 'callbar-example-client-id',
  region: 'US',
  relay_url: 'https://relay.example.com',
  update_url: 'https://updates.example.com/callbar',
  favourites: ['+4930123456'],
};

/** What the examples lock: the platform's addresses (so nobody points Callbar elsewhere). */
const LOCKED_IN_EXAMPLES: PolicyName[] = ['base_url', 'portal_url', 'relay_url'];

const DEFAULTS = PolicySettings.parse({}) as Record<PolicyName, unknown>;

/** An example value for every policy: its default, or an example where it has none. */
function exampleValue(name: PolicyName): unknown {
  return EXAMPLES[name] ?? DEFAULTS[name];
}

/** The generated files by path under resources/policy/. */
export function policyTemplates(): Record<string, string> {
  return {
    'windows/callbar.admx': admx(),
    ...Object.fromEntries(
      Object.entries(ADML_LANGUAGES).map(([locale, folder]) => [
        `windows/${folder}/callbar.adml`,
        policyAdml(translatorFor(locale, 'policy')),
      ]),
    ),
    'macos/com.callbar.desktop.mobileconfig': mobileconfig(),
    'linux/policies.example.json': linuxExample(),
  };
}

function examples(): { locked: Record<string, unknown>; recommended: Record<string, unknown> } {
  const locked: Record<string, unknown> = {};
  const recommended: Record<string, unknown> = {};
  for (const name of POLICY_NAMES) {
    (LOCKED_IN_EXAMPLES.includes(name) ? locked : recommended)[name] = exampleValue(name);
  }
  return { locked, recommended };
}

function linuxExample(): string {
  return JSON.stringify(examples(), null, 2) + '\n';
}

function mobileconfig(): string {
  const { locked, recommended } = examples();
  const profile = {
    PayloadDisplayName: 'Callbar policies',
    PayloadDescription:
      'Managed preferences for Callbar: top-level keys are locked, those under Recommended are defaults users may change. Generated from the policy schema; edit the values, then sign and deploy with your MDM.',
    PayloadIdentifier: `${POLICY_DOMAIN}.policies`,
    PayloadType: 'Configuration',
    PayloadScope: 'System',
    PayloadUUID: 'A9C7E3F0-5C1B-4E8A-9D2F-CA11BA400001',
    PayloadVersion: 1,
    PayloadContent: [
      {
        PayloadType: POLICY_DOMAIN,
        PayloadIdentifier: `${POLICY_DOMAIN}.policies.settings`,
        PayloadUUID: 'A9C7E3F0-5C1B-4E8A-9D2F-CA11BA400002',
        PayloadVersion: 1,
        PayloadDisplayName: 'Callbar',
        ...locked,
        Recommended: recommended,
      },
    ],
  };
  return buildPlist(profile as PlistValue) + '\n';
}

const xmlEscape = (text: string) =>
  text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;');

const LEVELS = [
  { suffix: '', key: POLICY_KEY, category: 'callbar' },
  { suffix: '_recommended', key: `${POLICY_KEY}\\Recommended`, category: 'callbar_recommended' },
] as const;

function admx(): string {
  const policies: string[] = [];
  for (const level of LEVELS) {
    for (const name of POLICY_NAMES) policies.push(admxPolicy(name, level));
  }
  return `<?xml version="1.0" encoding="utf-8"?>
<!-- Generated from Callbar's policy schema by \`npm run policy-templates\`: do not edit. -->
<policyDefinitions xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" revision="1.0" schemaVersion="1.0" xmlns="http://schemas.microsoft.com/GroupPolicy/2006/07/PolicyDefinitions">
  <policyNamespaces>
    <target prefix="callbar" namespace="Callbar.Policies" />
  </policyNamespaces>
  <resources minRequiredRevision="1.0" />
  <supportedOn>
    <definitions>
      <definition name="SUPPORTED_CALLBAR" displayName="$(string.SUPPORTED_CALLBAR)" />
    </definitions>
  </supportedOn>
  <categories>
    <category name="callbar" displayName="$(string.callbar)" />
    <category name="callbar_recommended" displayName="$(string.callbar_recommended)" />
  </categories>
  <policies>
${policies.join('\n')}
  </policies>
</policyDefinitions>
`;
}

function admxPolicy(name: PolicyName, level: (typeof LEVELS)[number]): string {
  const kind = policyKind(name);
  // A true-or-false policy is the value itself; the others have an element to fill in.
  const attributes =
    kind.kind === 'boolean' ? ` valueName="${name}"` : ` presentation="$(presentation.${name})"`;
  const head = `    <policy name="${name}${level.suffix}" class="Both" displayName="$(string.${name})" explainText="$(string.${name}_explain)"${attributes} key="${level.key}">
      <parentCategory ref="${level.category}" />
      <supportedOn ref="SUPPORTED_CALLBAR" />`;
  const tail = '    </policy>';
  switch (kind.kind) {
    case 'boolean':
      return `${head}
      <enabledValue><decimal value="1" /></enabledValue>
      <disabledValue><decimal value="0" /></disabledValue>
${tail}`;
    case 'integer':
      return `${head}
      <elements>
        <decimal id="${name}" valueName="${name}" minValue="${kind.min}" maxValue="${kind.max}" />
      </elements>
${tail}`;
    case 'text':
      return `${head}
      <elements>
        <text id="${name}" valueName="${name}" />
      </elements>
${tail}`;
    case 'choice':
      return `${head}
      <elements>
        <enum id="${name}" valueName="${name}">
${kind.options.map((option) => `          <item displayName="$(string.${name}_${option})"><value><string>${xmlEscape(option)}</string></value></item>`).join('\n')}
        </enum>
      </elements>
${tail}`;
    case 'list':
      return `${head}
      <elements>
        <list id="${name}" key="${level.key}\\${name}" valuePrefix="" />
      </elements>
${tail}`;
  }
}

/** A policy's title in `t`'s language. */
export function policyTitle(t: Translate, name: PolicyName): string {
  return t(`titles.${name}`);
}

/**
 * What a policy accepts, in `t`'s language, completing "… must be …": the very words the
 * settings and policy checks use in their messages (POLICY_RULES).
 */
export function policyRule(t: Translate, name: PolicyName): string {
  return sayWith(translatorFor(t.locale, 'errors'), POLICY_RULES[name]);
}

/** The ADML of `t`'s language: every string and presentation the ADMX names, XML-escaped. */
export function policyAdml(t: Translate): string {
  const strings: [string, string][] = [
    [
      'SUPPORTED_CALLBAR',
      t('templates.supportedOn', { name: packageInfo.name, version: packageInfo.version }),
    ],
    ['callbar', t('templates.locked')],
    ['callbar_recommended', t('templates.recommended')],
  ];
  const presentations: string[] = [];
  for (const name of POLICY_NAMES) {
    const kind = policyKind(name);
    const title = policyTitle(t, name);
    strings.push([name, title]);
    const fallback =
      DEFAULTS[name] === undefined ? t('templates.notSet') : JSON.stringify(DEFAULTS[name]);
    const explain = kind.kind === 'list' ? 'templates.explainList' : 'templates.explain';
    strings.push([
      `${name}_explain`,
      t(explain, { title, name, rule: policyRule(t, name), fallback }),
    ]);
    if (kind.kind === 'choice') {
      for (const option of kind.options) strings.push([`${name}_${option}`, option]);
    }
    const label = xmlEscape(title);
    const control = {
      boolean: '',
      integer: `<decimalTextBox refId="${name}">${label}</decimalTextBox>`,
      text: `<textBox refId="${name}"><label>${label}</label></textBox>`,
      choice: `<dropdownList refId="${name}">${label}</dropdownList>`,
      list: `<listBox refId="${name}">${label}</listBox>`,
    }[kind.kind];
    if (control) {
      presentations.push(`      <presentation id="${name}">
        ${control}
      </presentation>`);
    }
  }
  return `<?xml version="1.0" encoding="utf-8"?>
<!-- Generated from Callbar's policy schema by \`npm run policy-templates\`: do not edit. -->
<policyDefinitionResources xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" revision="1.0" schemaVersion="1.0" xmlns="http://schemas.microsoft.com/GroupPolicy/2006/07/PolicyDefinitions">
  <displayName>Callbar</displayName>
  <description>${xmlEscape(t('templates.description'))}</description>
  <resources>
    <stringTable>
${strings.map(([id, text]) => `      <string id="${id}">${xmlEscape(text)}</string>`).join('\n')}
    </stringTable>
    <presentationTable>
${presentations.join('\n')}
    </presentationTable>
  </resources>
</policyDefinitionResources>
`;
}
