/**
 * The demo's data and its profile's country agree (issue 41): the demo profile reads numbers as
 * German ones (a choice someone made is kept), and the simulator's directory is a German
 * company's: every number written without a country code is a complete German number.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildWorld } from '../../../simulator/seed-data';
import { comparableNumber } from '../../../src-main/core/numbers/number-match';
// @ts-expect-error -- a plain script of the demo's, without types
import { DEMO_REGION, DEMO_SEED, seedDemoRegion } from '../../../scripts/demo-region.mjs';

describe('the demo’s country', () => {
  it('is Germany in the demo profile, unless someone chose another', () => {
    const fresh = mkdtempSync(join(tmpdir(), 'callbar-demo-'));
    (seedDemoRegion as (dir: string) => void)(fresh);
    expect(JSON.parse(readFileSync(join(fresh, 'settings.json'), 'utf8'))).toEqual({
      region: 'DE',
    });
    const chosen = mkdtempSync(join(tmpdir(), 'callbar-demo-'));
    writeFileSync(join(chosen, 'settings.json'), '{"region": "AT", "language": "de"}');
    (seedDemoRegion as (dir: string) => void)(chosen);
    expect(JSON.parse(readFileSync(join(chosen, 'settings.json'), 'utf8'))).toEqual({
      region: 'AT',
      language: 'de',
    });
  });

  it('is the country of the simulator’s numbers written without a country code', () => {
    const world = buildWorld(7, 500);
    const national = [...world.contacts.values()]
      .flatMap((contact) => [contact.number, contact.secondaryNumber])
      .filter((number): number is string => number !== null && !number.startsWith('+'));
    expect(national.length).toBeGreaterThan(50);
    for (const number of national) {
      expect(comparableNumber(number, DEMO_REGION as 'DE').e164, number).toMatch(/^\+49/);
    }
  });
});

describe('the demo’s directory', () => {
  it('holds the contact the README’s search example finds, kept (--state) or not', () => {
    // README: `npm run -s callbar -- search smi luk   # word prefixes in any order: Lukas Smith`
    const readme = readFileSync(join(import.meta.dirname, '../../../README.md'), 'utf8');
    const example = /callbar -- search ([^#\n]+?)\s+#[^:\n]*: ([^\n]+)/.exec(readme);
    expect(example, 'the README’s search example').not.toBeNull();
    const [, query, name] = example as unknown as [string, string, string];
    // The demo's world: its seed and `npm run demo`'s default number of contacts.
    const world = buildWorld(DEMO_SEED as number, 500);
    const names = [...world.contacts.values()].map((contact) => contact.displayName);
    expect(names).toContain(name.trim());
    // Each word of the query starts a word of the name.
    const words = name.toLowerCase().split(/\s+/);
    for (const prefix of query.trim().toLowerCase().split(/\s+/)) {
      expect(
        words.some((word) => word.startsWith(prefix)),
        prefix,
      ).toBe(true);
    }
  });
});
