/**
 * The directory's contacts, in the order read: a list that makes each contact's object when it is
 * first asked for. A cache read at start holds its contacts as columns (directory-cache); the
 * scan that answers the first searches makes only the contacts a query keeps, and the index's
 * build makes the rest in slices, after the first answer. A list of contacts already made (a
 * sync's) is the same list over them.
 */
import type { DirectoryContact } from '../../../src-shared/contract';

/** How a list makes contact i, and reads its id and speed dial without making it. */
export interface ContactRows {
  readonly length: number;
  make(i: number): DirectoryContact;
  id(i: number): number;
  speedDial(i: number): number | null;
}

export class ContactList {
  readonly length: number;
  readonly #rows: ContactRows | undefined;
  /** The contacts made so far (all of them once #all is set). */
  readonly #made: (DirectoryContact | undefined)[];
  #all: readonly DirectoryContact[] | undefined;

  private constructor(length: number, rows?: ContactRows, all?: readonly DirectoryContact[]) {
    this.length = length;
    this.#rows = rows;
    this.#all = all;
    this.#made = all ? [] : new Array<DirectoryContact | undefined>(length);
  }

  /** The list of contacts already made. */
  static of(contacts: readonly DirectoryContact[]): ContactList {
    return new ContactList(contacts.length, undefined, contacts);
  }

  /** The list of contacts made by `rows` when asked for. */
  static made(rows: ContactRows): ContactList {
    return new ContactList(rows.length, rows);
  }

  /** Contact i (the same object each time). */
  at(i: number): DirectoryContact {
    if (this.#all) return this.#all[i]!;
    return (this.#made[i] ??= this.#rows!.make(i));
  }

  /** Contact i's id, without making the contact. */
  id(i: number): number {
    return this.#all ? this.#all[i]!.id : this.#rows!.id(i);
  }

  /** Contact i's speed dial, without making the contact. */
  speedDial(i: number): number | null {
    return this.#all ? this.#all[i]!.speed_dial : this.#rows!.speedDial(i);
  }

  /** Every contact, in order (made now, those not made yet). */
  all(): readonly DirectoryContact[] {
    const steps = this.makeAll(Number.POSITIVE_INFINITY);
    for (;;) {
      const step = steps.next();
      if (step.done) return step.value;
    }
  }

  /** Every contact, made in slices of `slice` (the generator yields between them). */
  *makeAll(slice: number): Generator<void, readonly DirectoryContact[]> {
    if (this.#all) return this.#all;
    // Pushed: a packed array (a preallocated one is holey).
    const all: DirectoryContact[] = [];
    for (let i = 0; i < this.length; i++) {
      all.push(this.at(i));
      if ((i + 1) % slice === 0 && i + 1 < this.length) yield;
    }
    // Another caller may have made them all meanwhile: theirs stay (the same objects).
    this.#all ??= all;
    this.#made.length = 0;
    return this.#all;
  }
}
