/**
 * JSON from outside, parsed only within bounds, so that what comes out is safe for the rest of
 * Callbar to clone, store and serialise: `structuredClone`, `JSON.stringify` and zod all recurse,
 * and a 16 KiB body nested 8,000 deep overflows their stack long after the receiver answered
 * (every later request that clones the tracker's calls would then fail). The nesting depth is
 * measured on the text, before `JSON.parse` builds anything; the parsed value is then walked for
 * over-long strings and keys, too many entries, and keys that would reach an object's prototype.
 * Every refusal is a 400 with a sentence that names the limit.
 */
import { HttpRejection } from './http-rejection';

/** The bounds a JSON body must keep. */
export interface JsonLimits {
  /** Objects and arrays inside each other (the top-level value is depth 1). */
  maxDepth: number;
  /** Characters of any one string value or key. */
  maxStringChars: number;
  /** Keys of one object, or items of one array. */
  maxEntries: number;
}

/** Keys that JavaScript code assigning them would turn into a prototype change. */
const PROTOTYPE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPENERS = new Set([0x5b, 0x7b]); // [ {
const CLOSERS = new Set([0x5d, 0x7d]); // ] }

/** The deepest nesting of arrays and objects in `text`, counting brackets outside strings. */
export function jsonNestingDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === BACKSLASH) index += 1;
      else if (code === QUOTE) inString = false;
    } else if (code === QUOTE) {
      inString = true;
    } else if (OPENERS.has(code)) {
      depth += 1;
      if (depth > deepest) deepest = depth;
    } else if (CLOSERS.has(code)) {
      depth -= 1;
    }
  }
  return deepest;
}

function refuse(message: string): never {
  throw new HttpRejection(400, message);
}

/**
 * Refuses (400) a parsed value with a string, key or entry count beyond `limits`, or a key that
 * would reach a prototype (`__proto__`, `constructor`, `prototype`).
 */
export function checkJsonBounds(value: unknown, limits: JsonLimits): void {
  checkValue(value, limits, 'the body');
}

function checkValue(value: unknown, limits: JsonLimits, where: string): void {
  if (typeof value === 'string') {
    if (value.length > limits.maxStringChars) {
      refuse(`The value of ${where} is longer than ${limits.maxStringChars} characters.`);
    }
    return;
  }
  if (value === null || typeof value !== 'object') return;
  const entries = Object.entries(value);
  if (entries.length > limits.maxEntries) {
    refuse(`${where} has more than ${limits.maxEntries} entries.`);
  }
  for (const [key, item] of entries) {
    if (key.length > limits.maxStringChars) {
      refuse(`A key in ${where} is longer than ${limits.maxStringChars} characters.`);
    }
    if (PROTOTYPE_KEYS.has(key)) refuse(`The key "${key}" is not accepted.`);
    checkValue(item, limits, Array.isArray(value) ? `${where}[…]` : `${where}.${key}`);
  }
}

/** Bounds of a value read from a file (a policy, a setting) before anything describes it. */
export interface ValueLimits {
  /** Objects and arrays inside each other (the value itself is depth 1). */
  maxDepth: number;
  /** Values in all (the value itself, each item and each property value, at any depth). */
  maxNodes: number;
}

/**
 * Which bound `value` breaks, if any, found without recursion: a value nested 5,000 deep
 * overflows the stack of whatever recurses into it (JSON.stringify, zod, structuredClone), so it
 * is measured before anything describes, validates or copies it.
 */
export function valueBeyond(value: unknown, limits: ValueLimits): 'depth' | 'size' | undefined {
  const pending: [unknown, number][] = [[value, 1]];
  let nodes = 0;
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [current, depth] = next;
    if (++nodes > limits.maxNodes) return 'size';
    if (current === null || typeof current !== 'object') continue;
    if (depth > limits.maxDepth) return 'depth';
    for (const item of Object.values(current)) pending.push([item, depth + 1]);
  }
  return undefined;
}

/**
 * `text` parsed as JSON, or an HttpRejection (400) that says which bound it broke or that it is
 * not JSON. The depth is checked on the text first, so no deep structure is ever built.
 */
export function parseBoundedJson(text: string, limits: JsonLimits): unknown {
  if (jsonNestingDepth(text) > limits.maxDepth) {
    refuse(`The JSON is nested more than ${limits.maxDepth} levels deep.`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch {
    refuse('The body is not valid JSON.');
  }
  checkJsonBounds(value, limits);
  return value;
}
