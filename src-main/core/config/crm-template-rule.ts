/**
 * The rule of a CRM address template (the `crm_links` setting; the addresses it gives are
 * crm/crm-template.ts's): `https://` only (no `javascript:`, `data:`, `file:`, plain `http:`), no
 * user name or password, no spaces, backslashes or control characters, only the known
 * placeholders, and none of them before the path: the host is fixed by the template, never by a
 * contact's field.
 */
import { z } from 'zod';
import { SAYS_WHY } from '../validation-issues';

/** The placeholders a template may hold, each filled from the party (empty when unknown). */
export const CRM_PLACEHOLDERS = ['e164', 'number', 'name', 'company', 'extension'] as const;
export type CrmPlaceholder = (typeof CRM_PLACEHOLDERS)[number];

/** The longest template accepted. */
export const MAX_TEMPLATE_CHARS = 1000;
/** A placeholder in a template: `{name}`. */
export const CRM_PLACEHOLDER_PATTERN = /\{([^{}]*)\}/g;

/** Why `template` is not a usable CRM address template, in a sentence; undefined when it is. */
export function crmTemplateProblem(template: string): string | undefined {
  if (template.length > MAX_TEMPLATE_CHARS) {
    return `it is longer than ${MAX_TEMPLATE_CHARS} characters`;
  }
  if (!/^https:\/\//i.test(template)) {
    return 'it must start with https:// (other kinds of address, such as http:, javascript: or data:, are not opened)';
  }
  // eslint-disable-next-line no-control-regex -- control characters are what is refused here
  if (/[\s\u0000-\u001f\u007f-\u009f]/.test(template)) {
    return 'it contains a space, a line break or another control character';
  }
  // Browsers read \ as / in an https address, so "host\@elsewhere" looks like another host.
  if (template.includes('\\')) return 'it contains a backslash (addresses use /)';
  const unknown = [...template.matchAll(CRM_PLACEHOLDER_PATTERN)]
    .map((match) => match[1]!)
    .filter((name) => !(CRM_PLACEHOLDERS as readonly string[]).includes(name));
  if (unknown.length > 0) {
    return `{${unknown[0]}} is not a placeholder (the placeholders are ${CRM_PLACEHOLDERS.map((name) => `{${name}}`).join(' ')})`;
  }
  if (/[{}]/.test(template.replace(CRM_PLACEHOLDER_PATTERN, ''))) {
    return 'it has a { or } that does not belong to a placeholder';
  }
  const origin = originPart(template);
  if (/\{[^{}]*\}/.test(origin)) {
    return 'a placeholder may not be part of the host: put it in the path or the query';
  }
  let url: URL;
  try {
    url = new URL(templateWithoutValues(template));
  } catch {
    return 'it is not a valid address';
  }
  if (url.username || url.password) {
    return 'it may not carry a user name or password (the address is visible in the browser and its history)';
  }
  if (url.protocol !== 'https:' || url.hostname === '') return 'it must be an https:// address';
  return undefined;
}

/** A CRM address template, validated (the zod schema the settings use). */
export const CrmTemplate = z
  .string()
  .trim()
  .superRefine((template, context) => {
    const problem = crmTemplateProblem(template);
    if (problem) {
      context.addIssue({
        code: 'custom',
        message: `${shortened(template)}: ${problem}`,
        params: { [SAYS_WHY]: true },
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
