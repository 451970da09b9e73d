import { useLayoutEffect, useState, type KeyboardEvent, type RefObject } from 'react';
import { useTranslation } from '../i18n';
import { useAppStore } from '../store/app-store';
import { RESULTS_ID } from './ResultList';

/**
 * The search box. Only it follows the typed text (the store's `query`), so a key re-renders the
 * box alone and never waits for the search; the search starts in the change handler itself. The
 * list beside it follows the answer (`answered`), which arrives after.
 */
export function SearchBox({
  ref,
  expanded,
  activeDescendant,
  onKeyDown,
}: {
  ref: RefObject<HTMLInputElement | null>;
  /** The results list is shown (aria-expanded). */
  expanded: boolean;
  /** The highlighted row's id. */
  activeDescendant: string | undefined;
  onKeyDown: (event: KeyboardEvent<HTMLInputElement>) => void;
}) {
  const { t } = useTranslation();
  const query = useAppStore((state) => state.query);
  const setQuery = useAppStore((state) => state.setQuery);
  const placeholder = useFittingPlaceholder(
    ref,
    t('search.placeholder'),
    t('search.placeholderShort'),
  );
  return (
    <input
      ref={ref}
      className="search-box"
      type="search"
      role="combobox"
      aria-label={t('search.label')}
      placeholder={placeholder}
      aria-expanded={expanded}
      aria-controls={RESULTS_ID}
      aria-autocomplete="list"
      aria-activedescendant={activeDescendant}
      autoComplete="off"
      spellCheck={false}
      value={query}
      onChange={(event) => void setQuery(event.target.value)}
      onKeyDown={onKeyDown}
    />
  );
}

/**
 * `long` while it fits the box's text area whole, else `short`: measured in the box's font, again
 * when the box changes width (the window resized) or the words change (another language).
 */
function useFittingPlaceholder(
  box: RefObject<HTMLInputElement | null>,
  long: string,
  short: string,
): string {
  const [fits, setFits] = useState(true);
  useLayoutEffect(() => {
    const input = box.current;
    if (!input || typeof ResizeObserver === 'undefined') return;
    const check = () => setFits(textFits(input, long));
    check();
    const observer = new ResizeObserver(check);
    observer.observe(input);
    return () => observer.disconnect();
  }, [box, long]);
  return fits ? long : short;
}

let measuring: CanvasRenderingContext2D | null | undefined;

/** Whether `text`, in `input`'s font, fits inside its padding. */
function textFits(input: HTMLInputElement, text: string): boolean {
  measuring ??= document.createElement('canvas').getContext('2d');
  if (!measuring) return true;
  const style = getComputedStyle(input);
  measuring.font = style.font;
  const room =
    input.clientWidth - parseFloat(style.paddingInlineStart) - parseFloat(style.paddingInlineEnd);
  return measuring.measureText(text).width <= room;
}
