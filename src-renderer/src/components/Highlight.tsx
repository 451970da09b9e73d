import type { MatchField, MatchRange } from '../../../src-shared/contract';
import { shownText } from '../views/shown-text';

/**
 * `text` with the characters the search matched in `field` marked; its bidi formatting characters
 * shown as text (see shownText).
 */
export function Highlight({
  text,
  field,
  ranges,
}: {
  text: string;
  field: MatchField;
  ranges: readonly MatchRange[];
}) {
  const own = ranges
    .filter((range) => range.field === field && range.end > range.start)
    .map((range) => ({
      start: Math.min(range.start, text.length),
      end: Math.min(range.end, text.length),
    }))
    .sort((a, b) => a.start - b.start);
  if (own.length === 0) return <>{shownText(text)}</>;
  const parts: React.ReactNode[] = [];
  let at = 0;
  for (const { start, end } of own) {
    if (end <= at) continue;
    const from = Math.max(start, at);
    if (from > at) parts.push(shownText(text.slice(at, from)));
    parts.push(<mark key={from}>{shownText(text.slice(from, end))}</mark>);
    at = end;
  }
  if (at < text.length) parts.push(shownText(text.slice(at)));
  return <>{parts}</>;
}
