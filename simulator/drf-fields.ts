/**
 * Django REST Framework serializer-field semantics as zod schemas, so request bodies are validated
 * the way the platform validates them: the same coercions (an IntegerField takes "5", a CharField
 * takes 5 and trims it), the same error codes and messages, every field error of a body reported
 * at once, unknown fields ignored, nested errors addressed as `user.tenant_id` or `contact_ids.2`
 * (drf-standardized-errors' `attr`).
 */
import { z } from 'zod';
import { validationError, type ErrorItem } from './drf-errors';
import { isPlainObject, pythonTypeName } from './http';

const INVALID: unique symbol = Symbol('invalid');
type Invalid = typeof INVALID;

/** Reports a field error; `path` is relative to the field being converted. */
export type Report = (code: string, detail: string, path?: (string | number)[]) => void;
/** Converts a present, non-null value, reporting errors; returns INVALID if it reported any. */
export type Convert<T> = (value: unknown, report: Report) => T | Invalid;

/** A field-level validator's verdict (DRF `validators=[…]` on a field). */
export class FieldProblem {
  constructor(
    readonly code: string,
    readonly detail: string,
  ) {}
}

/** Runs `next` on a converted value: it may transform it or return a FieldProblem. */
export function andThen<T, U>(
  convert: Convert<T>,
  next: (value: T) => U | FieldProblem,
): Convert<U> {
  return (value, report) => {
    const converted = convert(value, report);
    if (converted === INVALID) return INVALID;
    const result = next(converted);
    if (result instanceof FieldProblem) {
      report(result.code, result.detail);
      return INVALID;
    }
    return result;
  };
}

type Presence = 'required' | 'nullable' | 'optional';

function field<Out>(convert: Convert<unknown>, presence: Presence): z.ZodType<Out> {
  return z.unknown().transform((value, ctx) => {
    const report: Report = (code, detail, path = []) => {
      ctx.addIssue({ code: 'custom', message: detail, params: { drf: code }, path });
    };
    if (value === undefined) {
      if (presence === 'optional') return undefined as Out;
      report('required', 'This field is required.');
      return z.NEVER;
    }
    if (value === null) {
      if (presence === 'nullable') return null as Out;
      report('null', 'This field may not be null.');
      return z.NEVER;
    }
    const result = convert(value, report);
    return result === INVALID ? z.NEVER : (result as Out);
  });
}

/** A field that must be present and not null. */
export function required<T>(convert: Convert<T>): z.ZodType<T> {
  return field<T>(convert, 'required');
}

/** A field that must be present; null is a valid value. */
export function nullable<T>(convert: Convert<T>): z.ZodType<T | null> {
  return field<T | null>(convert, 'nullable');
}

/** A field that may be left out (then undefined); null is not a valid value. */
export function optional<T>(convert: Convert<T>): z.ZodType<T | undefined> {
  // zod refuses an absent key whose schema is not marked optional, whatever its output.
  return field<T | undefined>(convert, 'optional').optional();
}

/** DRF CharField (trim_whitespace on). */
export function text(options: { maxLength?: number; allowBlank?: boolean } = {}): Convert<string> {
  return (value, report) => {
    if (typeof value !== 'string' && typeof value !== 'number') {
      report('invalid', 'Not a valid string.');
      return INVALID;
    }
    const trimmed = String(value).trim();
    if (trimmed === '' && !options.allowBlank) {
      report('blank', 'This field may not be blank.');
      return INVALID;
    }
    if (options.maxLength !== undefined && trimmed.length > options.maxLength) {
      report('max_length', `Ensure this field has no more than ${options.maxLength} characters.`);
      return INVALID;
    }
    // DRF's ProhibitNullCharactersValidator (PostgreSQL text cannot hold NUL).
    if (trimmed.includes('\0')) {
      report('null_characters_not_allowed', 'Null characters are not allowed.');
      return INVALID;
    }
    return trimmed;
  };
}

/** DRF IntegerField. */
export function integer(options: { min?: number; max?: number } = {}): Convert<number> {
  return (value, report) => {
    let parsed: number | undefined;
    if (typeof value === 'number' && Number.isInteger(value)) parsed = value;
    if (typeof value === 'string') {
      const cleaned = value.replace(/\.0*\s*$/, '');
      if (/^\s*[+-]?\d+\s*$/.test(cleaned)) parsed = Number(cleaned.trim());
    }
    if (parsed === undefined || !Number.isSafeInteger(parsed)) {
      report('invalid', 'A valid integer is required.');
      return INVALID;
    }
    if (options.max !== undefined && parsed > options.max) {
      report('max_value', `Ensure this value is less than or equal to ${options.max}.`);
      return INVALID;
    }
    if (options.min !== undefined && parsed < options.min) {
      report('min_value', `Ensure this value is greater than or equal to ${options.min}.`);
      return INVALID;
    }
    return parsed;
  };
}

const TRUE_VALUES = new Set<unknown>([
  't',
  'T',
  'y',
  'Y',
  'yes',
  'Yes',
  'YES',
  'true',
  'True',
  'TRUE',
  'on',
  'On',
  'ON',
  '1',
  1,
  true,
]);
const FALSE_VALUES = new Set<unknown>([
  'f',
  'F',
  'n',
  'N',
  'no',
  'No',
  'NO',
  'false',
  'False',
  'FALSE',
  'off',
  'Off',
  'OFF',
  '0',
  0,
  false,
]);

/** DRF BooleanField. */
export function boolean(): Convert<boolean> {
  return (value, report) => {
    if (TRUE_VALUES.has(value)) return true;
    if (FALSE_VALUES.has(value)) return false;
    report('invalid', 'Must be a valid boolean.');
    return INVALID;
  };
}

/** DRF ChoiceField. */
export function choice<const C extends string>(choices: readonly C[]): Convert<C> {
  return (value, report) => {
    const key =
      typeof value === 'boolean'
        ? value
          ? 'True'
          : 'False'
        : typeof value === 'string' || typeof value === 'number'
          ? String(value)
          : JSON.stringify(value);
    const found = choices.find((candidate) => candidate === key);
    if (found === undefined) {
      report('invalid_choice', `"${key}" is not a valid choice.`);
      return INVALID;
    }
    return found;
  };
}

/** DRF ListField with a child field; child errors are addressed by index. */
export function list<T>(child: Convert<T>, options: { allowEmpty?: boolean } = {}): Convert<T[]> {
  return (value, report) => {
    if (!Array.isArray(value)) {
      report('not_a_list', `Expected a list of items but got type "${pythonTypeName(value)}".`);
      return INVALID;
    }
    if (value.length === 0 && options.allowEmpty === false) {
      report('empty', 'This list may not be empty.');
      return INVALID;
    }
    const items: T[] = [];
    let failed = false;
    value.forEach((item: unknown, index) => {
      const converted =
        item === null
          ? (report('null', 'This field may not be null.', [index]), INVALID)
          : child(item, (code, detail, path = []) => report(code, detail, [index, ...path]));
      if (converted === INVALID) failed = true;
      else items.push(converted);
    });
    return failed ? INVALID : items;
  };
}

/** DRF PrimaryKeyRelatedField over a queryset (`exists` says whether the pk is in it). */
export function primaryKey(exists: (id: number) => boolean): Convert<number> {
  return (value, report) => {
    const candidate =
      typeof value === 'number' && Number.isInteger(value)
        ? value
        : typeof value === 'string' && /^\s*\d+\s*$/.test(value)
          ? Number(value.trim())
          : undefined;
    if (candidate === undefined) {
      report(
        'incorrect_type',
        `Incorrect type. Expected pk value, received ${pythonTypeName(value)}.`,
      );
      return INVALID;
    }
    if (!exists(candidate)) {
      report('does_not_exist', `Invalid pk "${candidate}" - object does not exist.`);
      return INVALID;
    }
    return candidate;
  };
}

/** DRF ManyRelatedField: a list of primary keys; the first bad item fails the whole field. */
export function primaryKeys(exists: (id: number) => boolean): Convert<number[]> {
  const child = primaryKey(exists);
  return (value, report) => {
    if (!Array.isArray(value)) {
      report('not_a_list', `Expected a list of items but got type "${pythonTypeName(value)}".`);
      return INVALID;
    }
    const ids: number[] = [];
    for (const item of value as unknown[]) {
      const id = child(item, report);
      if (id === INVALID) return INVALID;
      if (!ids.includes(id)) ids.push(id);
    }
    return ids;
  };
}

/** DRF DictField without a child: any JSON object. */
export function dictionary(): Convert<Record<string, unknown>> {
  return (value, report) => {
    if (!isPlainObject(value)) {
      report(
        'not_a_dict',
        `Expected a dictionary of items but got type "${pythonTypeName(value)}".`,
      );
      return INVALID;
    }
    return value;
  };
}

/** A nested serializer: its own fields, errors under `field.sub` or `field.non_field_errors`. */
export function nested<S extends z.ZodRawShape>(shape: S): Convert<z.output<z.ZodObject<S>>> {
  const schema = z.object(shape);
  return (value, report) => {
    if (!isPlainObject(value)) {
      report('invalid', `Invalid data. Expected a dictionary, but got ${pythonTypeName(value)}.`, [
        'non_field_errors',
      ]);
      return INVALID;
    }
    const parsed = schema.safeParse(value);
    if (parsed.success) return parsed.data;
    for (const issue of parsed.error.issues) {
      report(issueCode(issue), issue.message, issue.path.map(pathSegment));
    }
    return INVALID;
  };
}

function pathSegment(segment: PropertyKey): string | number {
  return typeof segment === 'number' ? segment : String(segment);
}

function issueCode(issue: z.core.$ZodIssue): string {
  const params = (issue as { params?: { drf?: unknown } }).params;
  return typeof params?.drf === 'string' ? params.drf : 'invalid';
}

/** Validates a request body against a serializer shape; throws the 400 DRF would answer. */
export function validate<S extends z.ZodRawShape>(
  shape: S,
  data: unknown,
): z.output<z.ZodObject<S>> {
  if (data === null) {
    throw validationError([
      { code: 'null', detail: 'This field may not be null.', attr: 'non_field_errors' },
    ]);
  }
  if (!isPlainObject(data)) {
    throw validationError([
      {
        code: 'invalid',
        detail: `Invalid data. Expected a dictionary, but got ${pythonTypeName(data)}.`,
        attr: 'non_field_errors',
      },
    ]);
  }
  const parsed = z.object(shape).safeParse(data);
  if (parsed.success) return parsed.data;
  throw validationError(parsed.error.issues.map(toErrorItem));
}

export function toErrorItem(issue: z.core.$ZodIssue): ErrorItem {
  const attr = issue.path.map(pathSegment).join('.');
  return { code: issueCode(issue), detail: issue.message, attr: attr || null };
}
