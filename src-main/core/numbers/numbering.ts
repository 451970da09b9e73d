/**
 * The tenant's numbering: which short digit strings are extensions on the user's phone system.
 * A typed "794602" may be an extension, or six digits of someone's number; Callbar offers to dial
 * it as an extension only when it fits what it knows of the tenant's extensions: as long as the
 * user's own extension, one seen in calls, or a speed dial (speed-dial codes are dialled like
 * extensions). With nothing known, no extension is guessed.
 */

/** What is known of the tenant's extensions: the lengths they come in. */
export interface Numbering {
  lengths: ReadonlySet<number>;
}

/** The numbering that extensions, calls and speed dials seen say (digit strings of 2–6 digits). */
export function numberingOf(known: Iterable<string | number | null | undefined>): Numbering {
  const lengths = new Set<number>();
  for (const each of known) {
    if (each === null || each === undefined) continue;
    const digits = String(each).trim();
    if (/^[1-9]\d{1,5}$/.test(digits)) lengths.add(digits.length);
  }
  return { lengths };
}

/** Whether `digits` fits the tenant's extensions. */
export function fitsNumbering(digits: string, numbering: Numbering): boolean {
  return numbering.lengths.has(digits.length);
}
