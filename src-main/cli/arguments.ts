/** Reading typed values out of command-line strings; a bad one is a usage error naming it. */
import { UsageError } from './command';

export function integer(value: string | undefined, what: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^-?\d+$/.test(value.trim())) {
    throw new UsageError(`${what} must be a whole number, not "${value}".`);
  }
  return Number(value);
}

export function requiredInteger(value: string | undefined, what: string): number {
  const parsed = integer(value, what);
  if (parsed === undefined) throw new UsageError(`${what} is required.`);
  return parsed;
}

/** A value the user must give (an option the command cannot do without). */
export function required<T>(value: T | undefined, message: string): T {
  if (value === undefined) throw new UsageError(message);
  return value;
}
