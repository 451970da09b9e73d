/** Reading typed values out of command-line strings; a bad one is a usage error naming it. */
import { said, type Said } from '../core/text/said';
import { UsageError } from './command';

/** What a value is, in a message: an option (`--page`) or a phrase (`cli:usage.contactId`). */
type What = string | Said;

/**
 * A whole number from `min` to `max`: by default any the platform can be sent exactly (a
 * 20-digit one is a usage error here, before any request, not a number rounded on its way).
 */
export function integer(
  value: string | undefined,
  what: What,
  min = -Number.MAX_SAFE_INTEGER,
  max = Number.MAX_SAFE_INTEGER,
): number | undefined {
  if (value === undefined) return undefined;
  if (!/^-?\d+$/.test(value.trim())) {
    throw new UsageError(said('cli:usage.wholeNumber', { what, value }));
  }
  const parsed = Number(value);
  if (parsed >= min && parsed <= max) return parsed;
  throw new UsageError(said('cli:usage.wholeNumberFrom', { what, value, min, max }));
}

/** An id, a page or a page size: a whole number from 1 (see integer). */
export function positiveInteger(value: string | undefined, what: What): number | undefined {
  return integer(value, what, 1);
}

/** A required id (see positiveInteger). */
export function requiredId(value: string | undefined, what: What): number {
  const parsed = positiveInteger(value, what);
  if (parsed === undefined) throw new UsageError(said('cli:usage.isRequired', { what }));
  return parsed;
}

/** A value the user must give (an option the command cannot do without). */
export function required<T>(value: T | undefined, message: Said): T {
  if (value === undefined) throw new UsageError(message);
  return value;
}
