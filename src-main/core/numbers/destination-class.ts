/**
 * What a destination is, judged before anything is dialled: an extension, a number in the user's
 * region or abroad, premium-rate, shared-cost, toll-free, an emergency number, a `*`/`#` service
 * code, or an outside number of a kind nobody can tell. The data is libphonenumber's, kept up to
 * date by its maintainers, not a hand list:
 *
 * - emergency numbers per region: libphonenumber's short-number metadata
 *   (ShortNumberMetadata.xml) through `google-libphonenumber`'s ShortNumberInfo, which
 *   libphonenumber-js does not port. Core only: the renderer gets the verdict, never the data.
 * - number types (PREMIUM_RATE, SHARED_COST, TOLL_FREE…): libphonenumber-js with its `max`
 *   metadata (the default `min` metadata cannot tell types apart).
 *
 * It also says, in plain words, why a link to such a destination asks or is refused, and applies
 * the policy settings `dial_allowed_classes` and `dial_allowed_countries`.
 */
import type libphonenumber from 'google-libphonenumber';
import { createRequire } from 'node:module';
import type { CountryCode, PhoneNumber } from 'libphonenumber-js/max';
import type { DestinationClass } from '../../../src-shared/contract';
import { CallbarError } from '../errors';
import { said } from '../text/said';
import { inEnglish, spokenSaid } from '../text/translators';

let shortNumbers: libphonenumber.ShortNumberInfo | undefined;

/**
 * libphonenumber's short-number data, loaded when first asked for (or by `loadShortNumbers`): it
 * is 570 KB of JavaScript that a start's first search never needs, so no bundle evaluates it at
 * start. A plain require (it is CommonJS), so the emergency check stays synchronous.
 */
function shortNumberInfo(): libphonenumber.ShortNumberInfo {
  if (!shortNumbers) {
    const library = createRequire(import.meta.url)(
      'google-libphonenumber',
    ) as typeof libphonenumber;
    shortNumbers = library.ShortNumberInfo.getInstance();
  }
  return shortNumbers;
}

/** Loads the short-number data now (the core does once its index is built, ahead of any need). */
export function loadShortNumbers(): void {
  shortNumberInfo();
}

/** The verdict on one destination (the classification fields of the contract's DialTarget). */
export interface Classification {
  class: DestinationClass;
  /** ISO 3166-1 alpha-2, for outside and emergency numbers. */
  country?: string;
  /** The class in plain words. */
  description: string;
}

/** True when `digits` is, exactly, an emergency number in `region` (911 in US, 112 and 110 in DE…). */
export function isEmergencyNumber(digits: string, region: CountryCode): boolean {
  return /^\d{2,6}$/.test(digits) && shortNumberInfo().isEmergencyNumber(digits, region);
}

/**
 * The class in words, said by key (`errors:destination.<class>`): the description is its English,
 * worded again in the user's language where it is shown (sayAgain).
 */
const describe = (kind: DestinationClass, country?: string) =>
  inEnglish(said(`errors:destination.${kind}`, country ? { country: { region: country } } : {}));

/** An emergency number of `region` (the region's: they are short numbers, not E.164). */
export function emergencyClass(region: CountryCode): Classification {
  return { class: 'emergency', country: region, description: describe('emergency', region) };
}

/** A `*`/`#` code for the phone system (call forwarding, voicemail…). */
export function serviceCodeClass(): Classification {
  return { class: 'service-code', description: describe('service-code') };
}

/** A short number on the user's own phone system. */
export function extensionClass(): Classification {
  return { class: 'extension', description: describe('extension') };
}

const TYPE_CLASS: Partial<
  Record<NonNullable<ReturnType<PhoneNumber['getType']>>, DestinationClass>
> = {
  PREMIUM_RATE: 'premium-rate',
  SHARED_COST: 'shared-cost',
  TOLL_FREE: 'toll-free',
};

/** An outside number (parsed with libphonenumber-js's max metadata), judged from the user's region. */
export function externalClass(parsed: PhoneNumber, region: CountryCode): Classification {
  const country = parsed.country ?? region;
  const type = parsed.isValid() ? parsed.getType() : undefined;
  const byType = type === undefined ? undefined : TYPE_CLASS[type];
  const kind: DestinationClass =
    byType ?? (!parsed.isValid() ? 'unknown' : country === region ? 'national' : 'international');
  return { class: kind, country, description: describe(kind, country) };
}

/** The classes a link may never dial unasked, whatever "dial phone links without asking" says. */
const ALWAYS_ASK: ReadonlySet<DestinationClass> = new Set([
  'emergency',
  'premium-rate',
  'international',
  'unknown',
]);

/**
 * Why a link to this destination asks even when links dial without asking, or undefined when it
 * is an ordinary destination (asking then follows the setting).
 */
export function linkAskReason(target: Classification, region: CountryCode): string | undefined {
  const abroad = target.country !== undefined && target.country !== region;
  if (!ALWAYS_ASK.has(target.class) && !abroad) return undefined;
  return inEnglish(
    said('errors:destination.linkAsks', { description: spokenSaid(target.description) }),
  );
}

/**
 * Service codes are never dialled from a link: one tap on a web page could forward every call of
 * yours to a stranger (`*21*number#`).
 * @throws CallbarError `link_refused` for a service code.
 */
export function refuseServiceCodeLink(target: Classification & { destination: string }): void {
  if (target.class !== 'service-code') return;
  throw new CallbarError(
    'link_refused',
    said('errors:dialPolicy.serviceCodeLink', { destination: target.destination }),
    { field: 'target' },
  );
}

/** The dialling policy (settings `dial_allowed_classes`, `dial_allowed_countries`). */
export interface DialPolicy {
  dial_allowed_classes: readonly DestinationClass[];
  /** Countries numbers abroad may belong to; empty allows every country. */
  dial_allowed_countries: readonly string[];
}

/**
 * Refuses a destination the policy does not allow. Emergency numbers are always allowed: a phone
 * system must let anyone reach emergency services (in the US, Kari's Law requires it).
 * @throws CallbarError `dial_not_allowed` saying which setting refuses it and why.
 */
export function checkDialPolicy(
  target: Classification & { display: string },
  policy: DialPolicy,
  region: CountryCode,
  /** The settings the refusal names (a link's policy has its own: link_allowed_*). */
  names: { classes: string; countries: string } = {
    classes: 'dial_allowed_classes',
    countries: 'dial_allowed_countries',
  },
): void {
  if (target.class === 'emergency') return;
  if (!policy.dial_allowed_classes.includes(target.class)) {
    throw new CallbarError(
      'dial_not_allowed',
      said('errors:dialPolicy.classRefused', {
        kind: said(`errors:dialPolicy.classes.${target.class}`),
        display: spokenSaid(target.display),
        description: spokenSaid(target.description),
        setting: names.classes,
        allowed: policy.dial_allowed_classes.length,
        classes: policy.dial_allowed_classes.join(', '),
      }),
      { field: 'target' },
    );
  }
  const country = target.country;
  if (
    country !== undefined &&
    country !== region &&
    policy.dial_allowed_countries.length > 0 &&
    !policy.dial_allowed_countries.includes(country)
  ) {
    throw new CallbarError(
      'dial_not_allowed',
      said('errors:dialPolicy.countryRefused', {
        country: { region: country },
        display: spokenSaid(target.display),
        setting: names.countries,
        countries: policy.dial_allowed_countries.join(', '),
      }),
      { field: 'target' },
    );
  }
}
