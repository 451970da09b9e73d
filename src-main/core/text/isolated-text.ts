/**
 * Text someone else wrote, put into a line the desktop shows (the tray menu and tooltip, a
 * notification, a native dialog): each name in a first-strong isolate (FSI…PDI) so its direction
 * stays inside it, each number in a left-to-right isolate (LRI…PDI) so it reads as dialled beside
 * any name, and the controls and bidi characters inside either shown as their `\uXXXX` escape (a
 * name cannot close the isolate early, turn text around, or break the line).
 */
import { escapeOf, showControls } from './visible-controls';

const FSI = '\u2068';
const LRI = '\u2066';
const PDI = '\u2069';

/** A name, company or sentence from outside: isolated in the direction of its own first letter. */
export function isolatedName(text: string): string {
  return `${FSI}${showControls(text)}${PDI}`;
}

/** A phone number or extension: always left to right. */
export function isolatedNumber(text: string): string {
  return `${LRI}${showControls(text)}${PDI}`;
}

/**
 * A whole line with isolates in it, made safe to show: every control and bidi character shown as
 * its escape except the isolates, an isolate closed that was never opened shown too, and every
 * one left open closed at the end (so nothing in it spills over what follows).
 */
export function balancedLine(text: string): string {
  let open = 0;
  let line = '';
  for (const character of text) {
    if (character === FSI || character === LRI) open++;
    else if (character === PDI) {
      if (open === 0) {
        line += escapeOf(character);
        continue;
      }
      open--;
    } else {
      line += showControls(character);
      continue;
    }
    line += character;
  }
  return line + PDI.repeat(open);
}
