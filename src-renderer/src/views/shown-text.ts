/**
 * Explicit bidi formatting characters (embeddings, overrides, isolates) in text from outside,
 * shown as their `\u202e` escape, as the tray and the terminal show them. Inside a <bdi> they
 * would still act: a name's own U+2069 closes the isolation around it, and its U+202E then turns
 * the rest of the line around (the call's state, the Enter key's label). Marks (LRM, RLM) stay:
 * within the isolate they only steer the name's own neutrals.
 */
const BIDI_FORMATTING = /[\u202a-\u202e\u2066-\u2069]/g;

export function shownText(text: string): string {
  return text.replace(
    BIDI_FORMATTING,
    (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
