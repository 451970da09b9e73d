/**
 * A person's initials in a circle, as Contacts and Phone show them: the first letters of the
 * first and last word of a name (one for one word), or nothing for a number or no name. Its tint
 * comes from the name, so the same person always looks the same; the text on every tint meets
 * AA. Decoration: the name beside it says who it is.
 */
import { Icon } from './Icon';

const TINTS = 6;

/** "Ada Lovelace" → "AL", "Reception" → "R", "+49 30 1234" → "". */
export function initialsOf(name: string | null | undefined): string {
  const words = (name ?? '')
    .split(/[\s\-–—,.()]+/u)
    .filter((word) => /^\p{L}/u.test(word) && !/^(dr|prof|mr|mrs|ms|von|van|de)$/iu.test(word));
  if (words.length === 0) return '';
  const first = [...words[0]!][0]!;
  const last = words.length > 1 ? [...words.at(-1)!][0]! : '';
  return (first + last).toLocaleUpperCase();
}

function tintOf(name: string): number {
  let hash = 0;
  for (const character of name) hash = (hash * 31 + character.codePointAt(0)!) >>> 0;
  return hash % TINTS;
}

export function Avatar({
  name,
  size = 'medium',
}: {
  name: string | null | undefined;
  size?: 'medium' | 'large';
}) {
  const initials = initialsOf(name);
  return (
    <span
      className={`avatar avatar-${size}`}
      data-tint={initials ? tintOf(name ?? '') : 'none'}
      aria-hidden="true"
    >
      {initials || <Icon name="phone" />}
    </span>
  );
}
