/**
 * CRM link-outs: an address template an administrator or the user sets
 * (`https://crm.example.com/search?phone={e164}`) and the address it gives for one party of a
 * call or one contact. The address goes to the system browser, so both ends are checked:
 *
 * - the template: the settings' rule (config/crm-template-rule.ts: https only, known
 *   placeholders, none in the host, no credentials, no control characters);
 * - the address: every value URL-encoded (a `/`, `?`, `#`, `&`, CR or LF in a coworker's contact
 *   field stays a character of that value), each value cut at MAX_VALUE_CHARS (between whole
 *   characters: an emoji across the cut goes whole), the whole at MAX_URL_CHARS, and its origin
 *   still the template's; a value with half a character (a lone surrogate) builds no address.
 */
import {
  CRM_PLACEHOLDER_PATTERN,
  crmTemplateProblem,
  templateWithoutValues,
  type CrmPlaceholder,
} from '../config/crm-template-rule';

// What a template may be is the settings' rule (config/crm-template-rule.ts).
export { crmTemplateProblem } from '../config/crm-template-rule';

/** What a placeholder is filled with. */
export type CrmValues = Partial<Record<CrmPlaceholder, string>>;

/** Characters of one value used; the rest is cut (a contact's name can be anything). */
export const MAX_VALUE_CHARS = 200;
/** The longest address Callbar hands to the browser. */
export const MAX_URL_CHARS = 4000;

/** Why no address could be built: the template, the address's length, or a value's text. */
export type CrmAddressProblem = 'template' | 'too-long' | 'unencodable' | 'path-step';

/**
 * The address `template` gives for `values`: each value URL-encoded, at most MAX_VALUE_CHARS
 * of it, cut between whole characters. A problem instead when the template is not usable, the
 * address would be too long (or leave the template's origin: it cannot, but it is checked on the
 * address itself), a value holds text no address can carry (half of a surrogate pair, which
 * encodeURIComponent refuses), or a value is a step in the path: encodeURIComponent leaves a
 * name "..", or "." beside another ".", as it is, and the browser would climb out of the place
 * the template gave it (`/tenants/acme/contacts/{name}/calls` → `/tenants/acme/calls`); "%2E" is
 * no way out, URLs read it as a dot too.
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
  if (stepsInPath(filled) > stepsInPath(templateWithoutValues(template))) {
    return { problem: 'path-step' };
  }
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
    return new URL(templateWithoutValues(template)).origin === target.origin;
  });
}

/** The name a template is offered under: its host ("crm.example.com"). */
export function crmLinkLabel(template: string): string {
  try {
    return new URL(templateWithoutValues(template)).host;
  } catch {
    return 'CRM';
  }
}

/** How many `.` and `..` segments (also written `%2E`) the path of `url` holds, as written. */
function stepsInPath(url: string): number {
  const path = url.replace(/^https:\/\/[^/?#]*/i, '').split(/[?#]/)[0]!;
  return path.split('/').filter((segment) => /^(?:\.|%2e){1,2}$/i.test(segment)).length;
}

/** The template with each placeholder's value encoded; throws URIError for a lone surrogate. */
function fill(template: string, values: CrmValues): string {
  return template.replace(CRM_PLACEHOLDER_PATTERN, (_whole, name: string) =>
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
