import { Fragment, type ReactNode } from 'react';
import { useTranslation } from '../i18n';

/** Marks where a placeholder's element goes in a formatted message (private-use characters). */
const MARKER = /\uE000(\d+)\uE001/u;

/**
 * A catalog message (window namespace) with elements in its placeholders, for a sentence that
 * holds a name, a number or emphasis: `<Message id="about.extension" values={{ extension:
 * <PhoneNumber>…</PhoneNumber> }} />`. The message is formatted as `t()` does (plurals, numbers);
 * each element-valued placeholder becomes the element, so the translation decides where it goes.
 */
export function Message({ id, values }: { id: string; values: Record<string, ReactNode> }) {
  const { t } = useTranslation();
  const elements: ReactNode[] = [];
  const params = Object.fromEntries(
    Object.entries(values).map(([name, value]) => {
      if (typeof value === 'string' || typeof value === 'number') return [name, value];
      elements.push(value);
      return [name, `\uE000${elements.length - 1}\uE001`];
    }),
  );
  const parts = t(id, params).split(MARKER);
  return (
    <>
      {parts.map((part, index) =>
        index % 2 === 0 ? part : <Fragment key={index}>{elements[Number(part)]}</Fragment>,
      )}
    </>
  );
}
