import { describe, expect, it } from 'vitest';
import {
  MAX_SELECTION,
  selectionLink,
} from '../../../../browser-extension/src/background/selection-link';

/** The context menu's "Call with Callbar" on selected text (background.ts). */
describe('Call with Callbar on a selection', () => {
  it('dials the first number of the selection, found in the user’s region, as written', () => {
    expect(selectionLink('Ring the office on 030 1234567 or 030 7654321', 'DE')).toBe(
      'tel:0301234567',
    );
    expect(selectionLink('Office (212) 555-0123', 'US')).toBe('tel:2125550123');
    expect(selectionLink('Office +1 (212) 555-0123', 'US')).toBe('tel:+12125550123');
    // The same national digits mean another country's number, or none, elsewhere.
    expect(selectionLink('030 1234567', 'US')).toBeUndefined();
  });

  it('offers nothing for a selection without a number', () => {
    expect(selectionLink('Invoice 2026-11-29, total $1,234.56', 'US')).toBeUndefined();
    expect(selectionLink('', 'DE')).toBeUndefined();
  });

  it('reads only the selection’s first characters', () => {
    const far = `${'x '.repeat(MAX_SELECTION)}(212) 555-0123`;
    expect(selectionLink(far, 'US')).toBeUndefined();
    expect(selectionLink(`(212) 555-0123 ${far}`, 'US')).toBe('tel:2125550123');
  });
});
