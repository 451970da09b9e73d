/**
 * The rule of a CRM address template (the `crm_links` setting; the addresses it gives are
 * crm/crm-template.ts's): `https://` only (no `javascript:`, `data:`, `file:`, plain `http:`), no
 * user name or password, no spaces, backslashes or control characters, only the known
 * placeholders, and none of them before the path: the host is fixed by the template, never by a
 * contact's field.
 */
import { z } from 'zod';
import { SAID, SAYS_WHY } from '../validation-issues';
import { said, type Said } from '../text/said';
import { inEnglish } from '../text/translators';

/** The placeholders a template may hold, each filled from the party (empty when unknown). */
export const CRM_PLACEHOLDERS = ['e164', 'number', 'name', 'company', 'extension'] as const;
export type CrmPlaceholder = (typeof CRM_PLACEHOLDERS)[number];

/** The longest template accepted. */
export const MAX_TEMPLATE_CHARS = 1000;
/** A placeholder in a template: `{name}`. */
export const CRM_PLACEHOLDER_PATTERN = /\{([^{}]*)\}/g;

/** Why `template` is not a usable CRM address template, in a sentence; undefined when it is. */
export function crmTemplateProblem(template: string): string | undefined {
  const problem = crmTemplateProblemSaid(template);
  return problem && inEnglish(problem);
}

/** Why `template` is not a usable CRM address template, said by key; undefined when it is. */
export function crmTemplateProblemSaid(template: string): Said | undefined {
  if (template.length > MAX_TEMPLATE_CHARS) {
    return said('errors:crmTemplate.tooLong', { max: MAX_TEMPLATE_CHARS });
  }
  if (!/^https:\/\//i.test(template)) return said('errors:crmTemplate.notHttps');
  // eslint-disable-next-line no-control-regex -- control characters are what is refused here
  if (/[\s\u0000-\u001f\u007f-\u009f]/.test(template)) return said('errors:crmTemplate.control');
  // Browsers read \ as / in an https address, so "host\@elsewhere" looks like another host.
  if (template.includes('\\')) return said('errors:crmTemplate.backslash');
  const unknown = [...template.matchAll(CRM_PLACEHOLDER_PATTERN)]
    .map((match) => match[1]!)
    .filter((name) => !(CRM_PLACEHOLDERS as readonly string[]).includes(name));
  if (unknown.length > 0) {
    return said('errors:crmTemplate.unknownPlaceholder', {
      placeholder: `{${unknown[0]}}`,
      placeholders: CRM_PLACEHOLDERS.map((name) => `{${name}}`).join(' '),
    });
  }
  if (/[{}]/.test(template.replace(CRM_PLACEHOLDER_PATTERN, ''))) {
    return said('errors:crmTemplate.strayBrace', { open: '{', close: '}' });
  }
  const origin = originPart(template);
  if (/\{[^{}]*\}/.test(origin)) return said('errors:crmTemplate.placeholderInHost');
  let url: URL;
  try {
    url = new URL(templateWithoutValues(template));
  } catch {
    return said('errors:crmTemplate.invalid');
  }
  if (url.username || url.password) return said('errors:crmTemplate.credentials');
  if (url.protocol !== 'https:' || url.hostname === '')
    return said('errors:crmTemplate.notHttpsAddress');
  return undefined;
}

/** A CRM address template, validated (the zod schema the settings use). */
export const CrmTemplate = z
  .string()
  .trim()
  .superRefine((template, context) => {
    const problem = crmTemplateProblemSaid(template);
    if (problem) {
      const why = said('errors:crmTemplate.quoted', { template: shortened(template), problem });
      context.addIssue({
        code: 'custom',
        message: inEnglish(why),
        // The sentence by key too: the settings' messages word it in the reader's language.
        params: { [SAYS_WHY]: true, [SAID]: why },
      });
    }
  });

/** The template with every placeholder empty: the address's fixed part (its origin). */
export function templateWithoutValues(template: string): string {
  return template.replace(CRM_PLACEHOLDER_PATTERN, '');
}

/** `https://host:port` as written, up to the first /, ? or # after the scheme. */
function originPart(template: string): string {
  const rest = template.slice('https://'.length);
  const end = rest.search(/[/?#]/);
  return end < 0 ? rest : rest.slice(0, end);
}

function shortened(text: string): string {
  return JSON.stringify(text.length > 60 ? `${text.slice(0, 57)}…` : text);
}
