/**
 * Most messages need no ICU at all: plain text (1,536 of the 2,272 in the catalogs) or text with
 * `{name}` arguments given as strings (613 more). Those are put together here, word for word what
 * intl-messageformat would make of them (test/unit/shared/i18n/plain-messages.test.ts checks every
 * catalog message); the rest (plurals, selects, numbers, dates, quoting) go to i18next-icu as
 * before. This saves the ICU parser's work per message and, in a process that formats no number,
 * date or plural, the runtime's Intl start (intl-messageformat asks `Intl.NumberFormat` for the
 * locale of every message): about 40 ms of every CLI start.
 */
import type { I18nFormatModule, i18n } from 'i18next';
import ICU, { type IcuConfig } from 'i18next-icu';

/** A message's parts: literal text at even places, argument names at odd ones. */
type PlainParts = readonly string[];

/**
 * `{name}` arguments in text with no other ICU syntax: no `}` or `{` of their own, no apostrophe
 * that could quote (one before `'`, `{`, `}`, `#`, `|`, `<` or `>`).
 */
const PLAIN_MESSAGE = /^(?:[^{}']|'(?!['{}#|<>])|\{[A-Za-z_]\w*\})*$/;
const ARGUMENT = /\{([A-Za-z_]\w*)\}/;

/** Each catalog message's parts, split once (the catalogs bound how many there are). */
const partsOf = new Map<string, PlainParts | null>();

function plainParts(message: string): PlainParts | null {
  let parts = partsOf.get(message);
  if (parts === undefined) {
    // split with a capturing group alternates text and the names between.
    parts = PLAIN_MESSAGE.test(message) ? message.split(ARGUMENT) : null;
    partsOf.set(message, parts);
  }
  return parts;
}

/**
 * `message` with its arguments put in, when it needs nothing of ICU: plain text, or `{name}`
 * arguments whose values are strings. Undefined otherwise (a number is formatted in the locale,
 * a missing value is ICU's error): then ICU formats it.
 */
export function plainMessage(
  message: string,
  values: Readonly<Record<string, unknown>> = {},
): string | undefined {
  const parts = plainParts(message);
  if (!parts) return undefined;
  if (parts.length === 1) return message;
  let text = parts[0]!;
  for (let index = 1; index < parts.length; index += 2) {
    const value = values[parts[index]!];
    if (typeof value !== 'string') return undefined;
    text += value + parts[index + 1]!;
  }
  return text;
}

/** What i18next calls on its i18nFormat module (i18next-icu's, not in its typings). */
interface IcuFormatter {
  init(instance: i18n | null, options?: IcuConfig): void;
  parse(
    res: unknown,
    options: Record<string, unknown>,
    lng: string,
    ns: string,
    key: string,
    info?: unknown,
  ): unknown;
  addLookupKeys(...args: unknown[]): unknown;
}

/** i18next-icu, with the messages {@link plainMessage} can put together put together first. */
export function plainFirstIcu(config: IcuConfig): I18nFormatModule {
  const icu = new ICU(config) as unknown as IcuFormatter;
  return {
    type: 'i18nFormat',
    init: (instance: i18n) => icu.init(instance),
    parse: (...args: Parameters<IcuFormatter['parse']>) => {
      const [res, options] = args;
      const text = typeof res === 'string' ? plainMessage(res, options) : undefined;
      return text ?? icu.parse(...args);
    },
    addLookupKeys: (...args: unknown[]) => icu.addLookupKeys(...args),
  } as I18nFormatModule;
}
