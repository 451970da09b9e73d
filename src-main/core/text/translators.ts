/**
 * Wording outside the window, under plain Node: the CLI's human output, the tray and
 * notifications, the receiver's landing page, and core's English messages. One src-shared/i18n
 * instance per process, made on first use (a pseudo-locale's catalogs are loaded when it is asked
 * for); `t` functions are bound to a locale and a namespace.
 */
import {
  CATALOGS,
  createI18n,
  DEFAULT_LOCALE,
  isLocale,
  loadCatalogs,
  type Catalog,
  type I18n,
  type Locale,
  type Namespace,
} from '../../../src-shared/i18n';
import { sayWith, type Said, type Translate } from './said';

let instance: I18n | undefined;

function wordsIn(locale: Locale): I18n {
  instance ??= createI18n({ locale: DEFAULT_LOCALE, defaultNamespace: 'errors' });
  loadCatalogs(instance, locale);
  return instance;
}

/**
 * `namespace`'s words in `locale` (`t('tray.open')`; another namespace's as `errors:…`); a
 * locale Callbar does not speak is English, and so is a key missing in `locale`.
 */
export function translatorFor(locale: string, namespace: Namespace): Translate {
  const lng: Locale = isLocale(locale) ? locale : DEFAULT_LOCALE;
  const words = wordsIn(lng);
  const fixed = words.getFixedT(lng, namespace);
  const t = (key: string, values?: Record<string, string | number>) => fixed(key, values ?? {});
  return Object.assign(t, {
    locale: lng,
    has: (key: string) => words.exists(key, { lng, ns: namespace }),
  });
}

const english = new Map<Namespace, Translate>();

/**
 * `namespace`'s words in English, made on first use: not at a module's load (a start that says
 * nothing never makes i18next's instance).
 */
export function englishFor(namespace: Namespace): Translate {
  let t = english.get(namespace);
  if (!t) {
    t = translatorFor(DEFAULT_LOCALE, namespace);
    english.set(namespace, t);
  }
  return t;
}

/**
 * The Saids behind the English sentences this process made, the latest SPOKEN_MAX: where a
 * contract carries only the sentence (an account status's message, a dial target's description,
 * an error's message), the CLI and the shell in the same process word it again (`sayAgain`).
 */
const spoken = new Map<string, Said>();
const SPOKEN_MAX = 500;

/** A sentence in English: what an error's `message` holds (logs, `--json`, the IPC answer). */
export function inEnglish(text: Said): string {
  return kept(sayWith(englishFor('errors'), text), text);
}

/** `sentence`, the wording of `text`, kept among the latest SPOKEN_MAX. */
function kept(sentence: string, text: Said): string {
  spoken.delete(sentence);
  spoken.set(sentence, text);
  if (spoken.size > SPOKEN_MAX) spoken.delete(spoken.keys().next().value!);
  return sentence;
}

/**
 * {@link sayAgain} for an error the window shows: its wording in `t`'s language is kept as an
 * English one is, so that it is worded again from it (a dialog's error still open when the
 * person changes the language: the window's `app.sayAgain`).
 */
export function sayKept(t: Translate, text: Said | string): string {
  const said = typeof text === 'string' ? spokenSaid(text) : text;
  return typeof said === 'string' ? said : kept(sayWith(t, said), said);
}

let fixedSentences: Map<string, Said> | undefined;

/**
 * The `errors` catalog's English sentences without placeholders, by their text: a sentence
 * another process said and stored (a finished call's reason in the call log) is worded again
 * although this process never said it.
 */
function fixedSentence(sentence: string): Said | undefined {
  if (!fixedSentences) {
    fixedSentences = new Map();
    const add = (catalog: Catalog, prefix: string) => {
      for (const [key, value] of Object.entries(catalog)) {
        if (typeof value !== 'string') add(value, `${prefix}${key}.`);
        else if (!value.includes('{') && !fixedSentences!.has(value))
          fixedSentences!.set(value, { key: `errors:${prefix}${key}` });
      }
    };
    add(CATALOGS[DEFAULT_LOCALE].errors, '');
  }
  return fixedSentences.get(sentence);
}

/**
 * Sentences a holder keeps for as long as it likes, by holder: the machine's policy problems
 * (shown whenever Settings opens), an import's row reasons (up to IMPORT_LIMITS.maxRows, read
 * while the person scrolls). The latest SPOKEN_MAX alone would lose them: every keystroke's dial
 * target says a few sentences, and an import of 600 rows says 600, so the oldest came back in
 * English in a German window. A holder's new set replaces its last, so what is kept is bounded
 * by what the holders hold now.
 */
const held = new Map<string, Map<string, Said>>();

/**
 * Starts `holder`'s set of kept sentences anew (dropping the last) and gives the function that
 * keeps one: call it with each sentence as soon as it is said (inEnglish), before later
 * sentences could push it out of the latest SPOKEN_MAX.
 */
export function holdSentences(holder: string): (sentence: string | undefined) => void {
  const kept = new Map<string, Said>();
  held.set(holder, kept);
  return (sentence) => {
    if (sentence === undefined) return;
    // Just said, or kept by another holder (a plan's reason, in the import run's result).
    const text = spoken.get(sentence) ?? heldSaid(sentence);
    if (text) kept.set(sentence, text);
  };
}

function heldSaid(sentence: string): Said | undefined {
  for (const kept of held.values()) {
    const text = kept.get(sentence);
    if (text) return text;
  }
  return undefined;
}

/** The Said behind `sentence` when this process said it by key; otherwise the sentence. */
export function spokenSaid(sentence: string): Said | string {
  return spoken.get(sentence) ?? heldSaid(sentence) ?? fixedSentence(sentence) ?? sentence;
}

/**
 * `sentence` in `t`'s language when this process said it by key (or it is one of the catalog's
 * sentences without placeholders); otherwise as it is. The wording is kept as the sentence was
 * (by its holder where one holds it): a German reason the window still shows when the person
 * switches to English is worded again from it (`app.sayAgain`), not left German.
 */
export function sayAgain(t: Translate, sentence: string): string {
  const text = spokenSaid(sentence);
  if (typeof text !== 'object') return sentence;
  const worded = sayWith(t, text);
  if (worded !== sentence) keepWording(sentence, worded, text);
  return worded;
}

/** Keeps `worded`, another wording of `sentence`, where `sentence` is kept. */
function keepWording(sentence: string, worded: string, text: Said): void {
  for (const holding of held.values()) {
    if (!holding.has(sentence)) continue;
    holding.set(worded, text);
    return;
  }
  kept(worded, text);
}

/**
 * The fields of the contract that carry a sentence core said (a dial target's description and
 * note, a pending link's, a finished call's or an import row's reason, an account status's title,
 * message and warnings, why an import stopped, the label core gives a number: "Extension 204",
 * also as what a speed dial dials), or a list of them (the settings' policy problems), why a
 * settings file is not applied.
 */
const SENTENCE_FIELDS = new Set([
  'description',
  'note',
  'reason',
  'message',
  'warning',
  'events_warning',
  'title',
  'display',
  'dials_shown',
  'stopped',
  'policy_problems',
  'settings_problem',
  'last_error',
]);

/**
 * `value` (an answer to the window) with every sentence field this process said by key worded
 * again in `t`'s language; anything else, and sentences it did not say by key, as they are.
 * Bounded by the answer itself (already checked against the contract).
 *
 * Copied only where a sentence changed: an object or array none of whose sentences changed comes
 * back as it is. A keystroke's search answer (50 hits, no sentence in them) is walked, not
 * rebuilt: rebuilding it made about 240 KB of garbage a keystroke on core's thread (the
 * felt benchmark, docs/benchmarks.md).
 */
export function sayAgainIn<T>(t: Translate, value: T): T {
  return reworded(() => t, value) as T;
}

/**
 * {@link sayAgainIn} with the language's words made only when `value` holds a sentence: a
 * start's first answers (a search's hits hold none) do not make the translator.
 */
export function sayAgainWhenSaid<T>(words: () => Translate, value: T): T {
  let t: Translate | undefined;
  return reworded(() => (t ??= words()), value) as T;
}

function reworded(words: () => Translate, value: unknown): unknown {
  if (Array.isArray(value)) return eachReworded(value, (item) => reworded(words, item));
  if (typeof value !== 'object' || value === null) return value;
  let copy: Record<string, unknown> | undefined;
  // for…in over own fields: Object.entries would make an array of arrays for every object.
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    const field = (value as Record<string, unknown>)[key];
    const now = !SENTENCE_FIELDS.has(key)
      ? typeof field === 'string'
        ? field
        : reworded(words, field)
      : typeof field === 'string'
        ? sayAgain(words(), field)
        : Array.isArray(field)
          ? eachReworded(field, (each) =>
              typeof each === 'string' ? sayAgain(words(), each) : each,
            )
          : reworded(words, field);
    if (now !== field) (copy ??= { ...value })[key] = now;
  }
  return copy ?? value;
}

/** `items` with `change` applied to each; the same array when no item changed. */
function eachReworded(items: readonly unknown[], change: (item: unknown) => unknown): unknown {
  let copy: unknown[] | undefined;
  for (let at = 0; at < items.length; at++) {
    const now = change(items[at]);
    if (now !== items[at]) (copy ??= [...items])[at] = now;
  }
  return copy ?? items;
}
