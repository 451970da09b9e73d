/**
 * The dot between the facts on one line ("Outgoing · 10:32 · 0:12 · (202) 555-0199"): a space
 * before it and a no-break space after, so where a narrow window wraps the line the dot starts the
 * next line with the fact it introduces, never ends a line alone.
 */
export const SEPARATOR = ' \u00B7\u00A0';
