/**
 * Free speed dials for imported contacts that have none. The platform requires one on every
 * contact and refuses a code any contact, user, call queue, call flow or voicemail box of the
 * tenant holds (contract 2.5); Callbar knows only some of those, so the pool hands out codes it
 * does not know to be taken, and one the platform refuses is marked taken and the next handed out.
 * Codes come from 2000–9999 first (user extensions usually sit in 200–999), then 200–999; never
 * 9191.
 */
import { SpeedDial } from '../api/schemas';

function* allCodes(): Generator<number> {
  for (let code = 2000; code <= 9999; code++) if (code !== 9191) yield code;
  for (let code = 200; code <= 999; code++) yield code;
}

export class SpeedDialPool {
  readonly #taken: Set<number>;
  readonly #codes = allCodes();

  constructor(taken: Iterable<number>) {
    this.#taken = new Set(taken);
  }

  /** Whether `code` is a speed dial the contract allows. */
  static allows(code: number): boolean {
    return SpeedDial.safeParse(code).success;
  }

  /** A code nobody is known to hold (now held), or undefined when none is left. */
  take(): number | undefined {
    for (let next = this.#codes.next(); !next.done; next = this.#codes.next()) {
      if (!this.#taken.has(next.value)) {
        this.#taken.add(next.value);
        return next.value;
      }
    }
    return undefined;
  }

  /** A code found to be held (given in the file, or refused by the platform). */
  markTaken(code: number): void {
    this.#taken.add(code);
  }
}
