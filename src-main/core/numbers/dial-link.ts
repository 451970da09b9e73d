/**
 * Links that carry a phone number: `tel:` (RFC 3966), `callto:` / `callto://` and `sip:` /
 * `sips:` whose user part is a number. This module only takes the link apart; judging the number
 * is `parseDialTarget`'s job.
 */
import { CallbarError } from '../errors';
import { said, type Said } from '../text/said';

/** What a link says: the number as written, and the parameters that change its meaning. */
export interface LinkNumber {
  scheme: 'tel' | 'callto' | 'sip' | 'sips';
  /** The number part, percent-decoded, visual separators still in it. */
  number: string;
  /** RFC 3966 `;ext=` (also read from sip links). */
  extension?: string;
  /** RFC 3966 `;phone-context=`: a global number prefix ("+1-914-555") or a domain. */
  phoneContext?: string;
  /** RFC 2806 `;postd=`: keys to press once the call is answered. */
  postDial?: string;
}

const SCHEME = /^(tel|callto|sips?):/i;

/** True when `input` starts like one of the links Callbar dials. */
export function isDialLink(input: string): boolean {
  return SCHEME.test(input.trim());
}

/** `invalid_number` for `input` (its first 40 characters), saying `why`. */
export function notANumber(input: string, why: Said): CallbarError {
  const shown = input.length > 40 ? `${input.slice(0, 40)}…` : input;
  return new CallbarError('invalid_number', said('errors:number.notANumber', { shown, why }), {
    field: 'target',
  });
}

function decode(part: string, input: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    throw notANumber(input, said('errors:number.percentEncoding'));
  }
}

/** `;name=value` parameters, lower-cased names; a repeated parameter is ambiguous and refused. */
function readParams(text: string, input: string): Map<string, string> {
  const params = new Map<string, string>();
  for (const param of text.split(';').slice(1)) {
    if (param === '') continue;
    const eq = param.indexOf('=');
    const name = (eq < 0 ? param : param.slice(0, eq)).toLowerCase();
    if (params.has(name)) throw notANumber(input, said('errors:number.parameterRepeats', { name }));
    params.set(name, eq < 0 ? '' : decode(param.slice(eq + 1), input));
  }
  return params;
}

/**
 * Takes a dial link apart.
 * @throws CallbarError `invalid_number` when the link carries no number.
 */
export function parseDialLink(input: string): LinkNumber {
  const text = input.trim();
  const match = SCHEME.exec(text);
  if (!match) throw notANumber(input, said('errors:number.linkSchemes'));
  const scheme = match[1]!.toLowerCase() as LinkNumber['scheme'];
  let rest = text.slice(match[0].length);
  if (scheme === 'callto' || scheme === 'tel') rest = rest.replace(/^\/\//, '');
  // A fragment or a query has no meaning in a number link; but a # after a pause is a key to
  // press once the call is answered, as meeting invitations write it ("tel:+1…,,8123#").
  const hash = rest.indexOf('#');
  if (rest.includes('?') || (hash >= 0 && !/[,;]|\d\s*[pw]/i.test(rest.slice(0, hash)))) {
    throw notANumber(input, said('errors:number.queryOrFragment'));
  }
  if (scheme === 'sip' || scheme === 'sips') return parseSip(scheme, rest, input);
  const semicolon = rest.indexOf(';');
  const numberPart = semicolon < 0 ? rest : rest.slice(0, semicolon);
  const params = readParams(semicolon < 0 ? '' : rest.slice(semicolon), input);
  return withParams({ scheme, number: decode(numberPart, input) }, params);
}

function withParams(link: LinkNumber, params: Map<string, string>): LinkNumber {
  const extension = params.get('ext');
  const phoneContext = params.get('phone-context');
  const postDial = params.get('postd');
  return {
    ...link,
    ...(extension ? { extension } : {}),
    ...(phoneContext ? { phoneContext } : {}),
    ...(postDial ? { postDial } : {}),
  };
}

/** `sip:+4930123@host;user=phone`: the user part is the number; a name is not one. */
function parseSip(scheme: 'sip' | 'sips', rest: string, input: string): LinkNumber {
  const at = rest.lastIndexOf('@');
  const user = at < 0 ? rest : rest.slice(0, at);
  // The user part may carry tel parameters (RFC 3261 19.1.6: sip:+1-212-555-1212;ext=2@host).
  const semicolon = user.indexOf(';');
  const numberPart = decode(semicolon < 0 ? user : user.slice(0, semicolon), input);
  const params = readParams(semicolon < 0 ? '' : user.slice(semicolon), input);
  if (!/\d/.test(numberPart) || /[a-z]/i.test(numberPart.replace(/^\+/, ''))) {
    throw notANumber(input, said('errors:number.sipPerson'));
  }
  return withParams({ scheme, number: numberPart }, params);
}
