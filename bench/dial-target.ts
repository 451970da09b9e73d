/**
 * How long parsing what a person typed takes (the "Dial +49 30 …" row is parsed on every
 * keystroke), against libphonenumber-js's own parse of the same strings and the plain separator
 * strip Callbar used before: a mixed corpus of links, national and international numbers,
 * extensions, emergency, premium-rate and service codes, and refused input (each target is also
 * classified: destination-class.ts). Rounds are interleaved so load affects every variant alike.
 */
import { parsePhoneNumberFromString } from 'libphonenumber-js';
import { normalizeDestination } from '../src-main/core/api/call-control-api';
import { parseDialTarget } from '../src-main/core/calls/dial-target';

const corpus = [
  'tel:+49-30-1234567',
  'tel:+1-201-555-0123;ext=1234',
  'callto://+4930123456',
  'sip:+4930123456@example.com;user=phone',
  '+44 20 7123 4567',
  '020 7123 4567',
  '(202) 555-0188',
  '0049 30 1234567',
  '201',
  '*97',
  '+49 30 1234567; rm -rf /',
  'hello',
  '1-800-FLOWERS',
  '+49 30 \u202e7654321',
  // Classified since issue 25: an emergency number (short-number data), premium-rate, a service code.
  '999',
  '0909 879 0000',
  'tel:*21*0301234567%23',
];

function timePerCall(run: (input: string) => void, rounds: number): number {
  const start = process.hrtime.bigint();
  for (let i = 0; i < rounds; i++) for (const input of corpus) run(input);
  return Number(process.hrtime.bigint() - start) / (rounds * corpus.length);
}

export function dialTargetParse(rounds = 2000): Promise<void> {
  const variants: [string, (input: string) => void][] = [
    [
      'parseDialTarget (Callbar)',
      (input) => {
        try {
          parseDialTarget(input, { region: 'GB' });
        } catch {
          // Refusals are part of the corpus.
        }
      },
    ],
    ['libphonenumber-js parse alone', (input) => void parsePhoneNumberFromString(input, 'GB')],
    [
      'separator strip (before)',
      (input) => {
        try {
          normalizeDestination(input);
        } catch {
          // Refusals are part of the corpus.
        }
      },
    ],
  ];
  const totals = new Map<string, number>(variants.map(([name]) => [name, 0]));
  const passes = 5;
  for (let pass = 0; pass < passes; pass++) {
    for (const [name, run] of variants) {
      totals.set(name, totals.get(name)! + timePerCall(run, rounds / passes));
    }
  }
  for (const [name] of variants) {
    const ns = totals.get(name)! / passes;
    console.log(`${name.padEnd(32)} ${(ns / 1000).toFixed(2).padStart(7)} µs per input`);
  }
  return Promise.resolve();
}
