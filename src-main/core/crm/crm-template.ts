/**
 * CRM link-outs: an address template an administrator or the user sets
 * (`https://crm.example.com/search?phone={e164}`) and the address it gives for one party of a
 * call or one contact. The address goes to the system browser, so both ends are checked:
 *
 * - the template: `https://` only (no `javascript:`, `data:`, `file:`, plain `http:`), no user
 *   name or password, no spaces, backslashes or control characters, only the known placeholders,
 *   and none of them before the path: the host is fixed by the template, never by a contact's
 *   field;
 * - the address: every value URL-encoded (a `/`, `?`, `#`, `&`, CR or LF in a coworker's contact
 *   field stays a character of that value), each value cut at MAX_VALUE_CHARS (between whole
 *   characters: an emoji across the cut goes whole), the whole at MAX_URL_CHARS, and its origin
 *   still the template's; a value with half a character (a lone surrogate) builds no address.
 */
import { z } from 'zod';
import { SAYS_WHY } from '../validation-issues';

/** The placeholders a template may hold, each filled from the party (empty when unknown). */
export const CRM_PLACEHOLDERS = ['e164', 'number', 'name', 'company', 'extension'] as const;
export type CrmPlaceholder = (typeof CRM_PLACEHOLDERS)[number];

/** What a placeholder is filled with. */
export type CrmValues = Partial<Record<CrmPlaceholder, string>>;

/** The longest template accepted. */
export const MAX_TEMPLATE_CHARS = 1000;
/** Characters of one value used; the rest is cut (a contact's name can be anything). */
export const MAX_VALUE_CHARS = 200;
/** The longest address Callbar hands to the browser. */
export const MAX_URL_CHARS = 4000;

const PLACEHOLDER = /\{([^{}]*)\}/g;

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
  const unknown = [...template.matchAll(PLACEHOLDER)]
    .map((match) => match[1]!)
    .filter((name) => !(CRM_PLACEHOLDERS as readonly string[]).includes(name));
  if (unknown.length > 0) {
    return `{${unknown[0]}} is not a placeholder (the placeholders are ${CRM_PLACEHOLDERS.map((name) => `{${name}}`).join(' ')})`;
  }
  if (/[{}]/.test(template.replace(PLACEHOLDER, ''))) {
    return 'it has a { or } that does not belong to a placeholder';
  }
  const origin = originPart(template);
  if (/\{[^{}]*\}/.test(origin)) {
    return 'a placeholder may not be part of the host: put it in the path or the query';
  }
  let url: URL;
  try {
    url = new URL(fill(template, {}));
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

/** Why no address could be built: the template, the address's length, or a value's text. */
export type CrmAddressProblem = 'template' | 'too-long' | 'unencodable';

/**
 * The address `template` gives for `values`: each value URL-encoded, at most MAX_VALUE_CHARS
 * of it, cut between whole characters. A problem instead when the template is not usable, the
 * address would be too long (or leave the template's origin: it cannot, but it is checked on the
 * address itself), or a value holds text no address can carry (half of a surrogate pair, which
 * encodeURIComponent refuses).
 */
export function crmAddress(
  template: string,
  values: CrmValues,
): { url: string } | { problem: CrmAddressProblem } {
  if (crmTemplateProblem(template)) return { problem: 'template' };
  let filled: string;
  try {
    filled = fill(template, values);
  } catch {
    return { problem: 'unencodable' };
  }
  if (filled.length > MAX_URL_CHARS) return { problem: 'too-long' };
  return isCrmUrl(filled, [template]) ? { url: filled } : { problem: 'template' };
}

/** The address crmAddress builds, or undefined when it cannot build one. */
export function crmUrl(template: string, values: CrmValues): string | undefined {
  const address = crmAddress(template, values);
  return 'url' in address ? address.url : undefined;
}

/**
 * True when `url` may be opened as a CRM link: https, without credentials, at the origin of one
 * of the templates set. The shell's allow-list for the browser (with the portal's).
 */
export function isCrmUrl(url: string, templates: readonly string[]): boolean {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return false;
  }
  if (target.protocol !== 'https:' || target.username || target.password) return false;
  return templates.some((template) => {
    if (crmTemplateProblem(template)) return false;
    return new URL(fill(template, {})).origin === target.origin;
  });
}

/** The name a template is offered under: its host ("crm.example.com"). */
export function crmLinkLabel(template: string): string {
  try {
    return new URL(fill(template, {})).host;
  } catch {
    return 'CRM';
  }
}

/** The template with each placeholder's value encoded; throws URIError for a lone surrogate. */
function fill(template: string, values: CrmValues): string {
  return template.replace(PLACEHOLDER, (_whole, name: string) =>
    encodeURIComponent(
      wholeCharacters((values[name as CrmPlaceholder] ?? '').replace(/\p{Cc}/gu, ' ')),
    ),
  );
}

/** `value` cut to MAX_VALUE_CHARS, never between the two halves of a character. */
function wholeCharacters(value: string): string {
  if (value.length <= MAX_VALUE_CHARS) return value;
  const cut = value.slice(0, MAX_VALUE_CHARS);
  return /[\uD800-\uDBFF]$/.test(cut) && /^[\uDC00-\uDFFF]/.test(value.slice(MAX_VALUE_CHARS))
    ? cut.slice(0, -1)
    : cut;
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
