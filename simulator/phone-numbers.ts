/**
 * Phone numbers and dial destinations as the platform accepts them on write ("E.164 recommended;
 * some local formats may be normalized"): visual separators (spaces, dashes, dots, slashes,
 * parentheses) are removed and an international 00 prefix becomes +; what remains must be an
 * optional + and 3 to 20 digits. National numbers such as 0301234567 are kept as they are.
 */
export function normalizePhoneNumber(raw: string): string | undefined {
  let number = raw.replace(/[\s().\-/]/g, '');
  if (number.startsWith('00')) number = `+${number.slice(2)}`;
  return /^\+?\d{3,20}$/.test(number) ? number : undefined;
}

/** A click-to-dial destination: an extension or a phone number (also * and # codes). */
export function normalizeDestination(raw: string): string | undefined {
  const destination = raw.replace(/[\s().\-/]/g, '');
  return /^\+?[0-9*#]{2,32}$/.test(destination) ? destination : undefined;
}
