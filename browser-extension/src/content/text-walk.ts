/**
 * Which text of a page may hold a number Callbar marks: everything but what the user types into
 * (inputs, text areas, editable regions), code (code, pre, kbd, samp), the page's own links and
 * controls, scripts and styles, and what Callbar marked already. Whole subtrees are skipped, so
 * a long code block costs one check.
 */

/** Elements whose whole content is never scanned. */
const SKIPPED = new Set([
  'A',
  'BUTTON',
  'CODE',
  'IFRAME',
  'INPUT',
  'KBD',
  'NOSCRIPT',
  'OBJECT',
  'OPTION',
  'PRE',
  'SAMP',
  'SCRIPT',
  'SELECT',
  'STYLE',
  'SVG',
  'TEMPLATE',
  'TEXTAREA',
  'TITLE',
  'VAR',
]);

/** The attribute on what Callbar marked (also how the click handler finds it). */
export const MARK_ATTRIBUTE = 'data-callbar-number';

function skipped(element: Element): boolean {
  if (SKIPPED.has(element.tagName.toUpperCase())) return true;
  if (element.hasAttribute(MARK_ATTRIBUTE)) return true;
  // The root of an editable region (its descendants are skipped with it).
  return (element as HTMLElement).isContentEditable === true;
}

/** Whether text inside `node` may be scanned (checked for nodes that arrive one by one). */
export function mayScan(node: Node): boolean {
  for (
    let at = node.nodeType === Node.ELEMENT_NODE ? (node as Element) : node.parentElement;
    at;
    at = at.parentElement
  ) {
    if (skipped(at)) return false;
  }
  return true;
}

/** The text nodes under `root` that may hold a number, in document order. */
export function* scannableText(root: Node): Generator<Text> {
  if (root.nodeType === Node.TEXT_NODE) {
    yield root as Text;
    return;
  }
  const walker = (root.ownerDocument ?? (root as Document)).createTreeWalker(
    root,
    NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT,
    {
      acceptNode: (node) =>
        node.nodeType === Node.TEXT_NODE
          ? NodeFilter.FILTER_ACCEPT
          : skipped(node as Element)
            ? NodeFilter.FILTER_REJECT
            : NodeFilter.FILTER_SKIP,
    },
  );
  for (let node = walker.nextNode(); node; node = walker.nextNode()) yield node as Text;
}
