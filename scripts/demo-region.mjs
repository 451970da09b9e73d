// The demo profile's country (issue 41): the simulator's directory is a German company's (German
// numbers, many written the national way, "030 …", beside Austrian, Swiss and British ones), so the
// demo reads and shows numbers as they are in Germany, unless someone chose another country.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The country of the simulator's demo data. */
export const DEMO_REGION = 'DE';

/**
 * The seed of the demo's made-up directory, kept or not (the simulator's own default): among its
 * contacts are those the README's and cli.md's examples find (Lukas Smith). A seed drawn at
 * random had them in about one demo of eight.
 */
export const DEMO_SEED = 1;

/** Sets the region of the profile in `dataDir` to DEMO_REGION when none is chosen yet. */
export function seedDemoRegion(dataDir) {
  const file = join(dataDir, 'settings.json');
  try {
    const saved = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
    if (saved.region !== undefined) return;
    writeFileSync(file, `${JSON.stringify({ ...saved, region: DEMO_REGION }, null, 2)}\n`, {
      mode: 0o600,
    });
  } catch {
    // An unreadable settings file is left as it is: Callbar says what is wrong with it.
  }
}
