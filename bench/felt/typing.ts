/**
 * Realistic typing for the felt benchmark: what a person types into the search box, key by key,
 * with the pauses between keys. Seeded, so every run (and both pages of a run) types the same.
 * Names (a first name's start, sometimes a space and the last name's start), companies, number
 * fragments typed with the spaces people put in them, a speed dial, and typos fixed with
 * Backspace, typed without accents. Each query ends with Escape (clears the box; not measured).
 */
import type { DirectoryContact } from '../../src-shared/contract';
import { foldText } from '../../src-main/core/directory/text-fold';
import { seededRandom } from '../search-data';

export interface Keystroke {
  /** A key name for Playwright's keyboard.press. */
  key: string;
  /** The pause before the key, ms. */
  pauseMs: number;
  /** Measured (Escape, clearing between queries, is not). */
  measured: boolean;
}

/** At least `count` measured keystrokes, over queries built from `contacts`. */
export function typingScript(
  contacts: readonly DirectoryContact[],
  count: number,
  seed = 31,
): Keystroke[] {
  const random = seededRandom(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  // A person types ~150 ms apart when fluent, slower when hunting for keys.
  const pause = () => Math.round(90 + random() * 120);
  const keys: Keystroke[] = [];
  // People type names without their accents (the search folds them): "Jürgen" as "jurgen".
  const type = (text: string) => {
    for (const char of foldText(text).replace(/[^a-z0-9 ]/g, '')) {
      keys.push({ key: char === ' ' ? 'Space' : char, pauseMs: pause(), measured: true });
    }
  };
  const backspace = (times: number) => {
    for (let i = 0; i < times; i++)
      keys.push({ key: 'Backspace', pauseMs: pause(), measured: true });
  };
  const head = (word: string, min: number, max: number) =>
    word.slice(0, Math.min(word.length, min + Math.floor(random() * (max - min + 1))));
  let measured = 0;
  while (measured < count) {
    const contact = pick(contacts);
    const kind = random();
    const [first = '', last = ''] = contact.display_name.replace(',', '').split(' ');
    if (kind < 0.45) {
      type(head(first, 2, 6).toLowerCase());
      if (random() < 0.5) type(` ${head(last, 1, 4).toLowerCase()}`);
    } else if (kind < 0.6 && contact.company) {
      type(head(contact.company, 3, 8).toLowerCase());
    } else if (kind < 0.85) {
      // Digits from the subscriber part, with the space a person copies from a card.
      const digits = contact.number.replace(/\D/g, '').slice(-7);
      const at = 1 + Math.floor(random() * 3);
      type(`${digits.slice(0, at)} ${digits.slice(at, at + 3 + Math.floor(random() * 2))}`);
    } else if (kind < 0.9 && contact.speed_dial !== null) {
      type(String(contact.speed_dial));
    } else {
      // A typo, noticed and fixed.
      const name = head(last || first, 4, 7).toLowerCase();
      type(`${name.slice(0, -1)}x`);
      backspace(2);
      type(name.slice(-2));
    }
    measured = keys.filter((key) => key.measured).length;
    keys.push({ key: 'Escape', pauseMs: 400, measured: false });
  }
  return keys;
}

/**
 * Every text the search box held while the script typed (what the router is asked), each with the
 * pause before the key that made it.
 */
export function typedTexts(keys: readonly Keystroke[]): { text: string; pauseMs: number }[] {
  const texts: { text: string; pauseMs: number }[] = [];
  let text = '';
  for (const { key, measured, pauseMs } of keys) {
    if (!measured) text = '';
    else if (key === 'Backspace') text = text.slice(0, -1);
    else text += key === 'Space' ? ' ' : key;
    if (measured && text.trim() !== '') texts.push({ text: text.trim(), pauseMs });
  }
  return texts;
}

/** Every text the search box held while the script typed (what the router is asked). */
export function typedQueries(keys: readonly Keystroke[]): string[] {
  return typedTexts(keys).map(({ text }) => text);
}
