/**
 * Turns a failed settings validation into sentences a person can act on: which setting, what it
 * was, what it must be. Unknown keys are named (with a suggestion for near-miss typos); their
 * values are never repeated, since a misplaced secret could be one of them.
 */
import type { z } from 'zod';
import { valueBeyond, type ValueLimits } from '../http/bounded-json';
import { SAID, SAYS_WHY } from '../validation-issues';
import { said, type Said } from '../text/said';
import { inEnglish } from '../text/translators';
import { isSettingName, SETTING_NAMES, SETTING_RULES } from './settings';
import { refusedPortOf, whyPortRefused } from './local-port';

/** The sentences describing what is wrong, and the first setting concerned. */
export interface SettingsProblems {
  /** Each as a catalog key and values, or as a check worded it (`issue.message`). */
  problems: (string | Said)[];
  field: string | undefined;
  /**
   * One sentence per invalid setting, for a form that shows it under that setting's own field:
   * what it must be and what it was, without the setting's name ("Must be a whole number…"),
   * in English, said by key (worded again in the window's language).
   */
  fields: Record<string, string>;
}

const SECRET_KEYS = new Set(['client_secret', 'access_token', 'refresh_token']);

/** Describes every issue of `error`, raised while validating `input` (a parsed JSON object). */
export function describeSettingsIssues(error: z.ZodError, input: unknown): SettingsProblems {
  const problems: (string | Said)[] = [];
  const fields: Record<string, string> = {};
  let field: string | undefined;
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        problems.push(describeUnknownKey(key));
        field ??= key;
      }
      continue;
    }
    const name = issue.path[0];
    if (typeof name !== 'string' || !isSettingName(name)) {
      problems.push(issue.message);
      continue;
    }
    const value = valueAt(input, name);
    // A check that says exactly what is wrong with which item (a CRM template) is quoted.
    if (issue.code === 'custom' && issue.params?.[SAYS_WHY] === true) {
      // By key when the check said it so (worded again in the reader's language).
      const why = (issue.params[SAID] as Said | undefined) ?? issue.message;
      problems.push(said('errors:settings.quotedProblem', { name, why }));
      fields[name] ??= inEnglish(
        said('errors:settings.fieldProblem', { why: { capitalised: why } }),
      );
      field ??= name;
      continue;
    }
    // A port browsers refuse says why, and which port to take instead.
    const refused = refusedPortOf(issue);
    if (refused !== undefined) {
      const why = whyPortRefused(refused);
      problems.push(said('errors:settings.portRefused', { name, port: refused, why }));
      fields[name] ??= inEnglish(
        said('errors:settings.fieldPortRefused', { why: { capitalised: why } }),
      );
      field ??= name;
      continue;
    }
    const values = { name, value: describeValue(value), rule: SETTING_RULES[name] };
    problems.push(said('errors:settings.mustBe', values));
    fields[name] ??= inEnglish(said('errors:settings.fieldMustBe', values));
    field ??= name;
  }
  const unique = new Map(problems.map((each) => [JSON.stringify(each), each]));
  return { problems: [...unique.values()], field, fields };
}

/** A value deeper or larger than this is described by its shape alone. */
const DESCRIBED: ValueLimits = { maxDepth: 8, maxNodes: 1000 };

/**
 * A short rendering of a (non-secret) setting value for an error message; a value too deep or
 * large to write out (see valueBeyond) is shown as `[…]` or `{…}`.
 */
export function describeValue(value: unknown): string | Said {
  if (value === undefined) return said('errors:settings.missing');
  if (valueBeyond(value, DESCRIBED)) return Array.isArray(value) ? '[…]' : '{…}';
  // A password written into an address (https://user:secret@…) is never repeated.
  const text = (JSON.stringify(value) ?? typeof value).replace(/(\/\/)[^/?#@\s"]*@/g, '$1…@');
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
}

function describeUnknownKey(key: string): Said {
  if (SECRET_KEYS.has(key)) return said('errors:settings.secretKey', { key });
  const suggestion = closestSettingName(key);
  if (suggestion) return said('errors:settings.didYouMean', { key, suggestion });
  return said('errors:settings.unknownKey', { key, names: SETTING_NAMES.join(', ') });
}

function valueAt(input: unknown, name: string): unknown {
  if (input === null || typeof input !== 'object') return undefined;
  return (input as Record<string, unknown>)[name];
}

function closestSettingName(key: string): string | undefined {
  const normalized = key.toLowerCase().replaceAll('-', '_');
  let best: { name: string; distance: number } | undefined;
  for (const name of SETTING_NAMES) {
    const distance = editDistance(normalized, name);
    if (distance <= 2 && (!best || distance < best.distance)) best = { name, distance };
  }
  return best?.name;
}

/** Levenshtein distance, small inputs only. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}
