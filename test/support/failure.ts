import { expect } from 'vitest';
import { CallbarError } from '../../src-main/core/errors';

/** The CallbarError that `work` (a promise, or a function that throws or rejects) ends in. */
export async function failure(work: Promise<unknown> | (() => unknown)): Promise<CallbarError> {
  let caught: unknown;
  try {
    await (typeof work === 'function' ? work() : work);
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(CallbarError);
  return caught as CallbarError;
}
