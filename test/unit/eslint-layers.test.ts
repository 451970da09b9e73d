/**
 * The floors as a lint rule (eslint.layers.js, part of eslint.config.js and so of `npm run lint`):
 * an import planted in a lower floor that reaches up, or from one process into another it must
 * not know, fails; the same file importing downwards passes. Every part of core sits on a floor,
 * and docs/architecture.md draws the floors the rule checks.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ESLint, type Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';

// The configs are plain JavaScript (no declarations for the type checker): loaded by address.
const { CORE_FLOORS, layers } = (await import(
  new URL('../../eslint.layers.js', import.meta.url).href
)) as { CORE_FLOORS: { floor: string; parts: string[] }[]; layers: Linter.Config[] };
const { default: config } = (await import(
  new URL('../../eslint.config.js', import.meta.url).href
)) as { default: Linter.Config[] };

const root = join(import.meta.dirname, '../..');
const eslint = new ESLint({
  cwd: root,
  overrideConfigFile: true,
  overrideConfig: [{ languageOptions: { parser: tseslint.parser } }, ...layers],
});

/** The boundary errors of a file at `path` holding `source`. */
async function violations(path: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(source, { filePath: join(root, path) });
  return result!.messages
    .filter((message) => message.ruleId === 'boundaries/dependencies')
    .map((message) => message.message);
}

describe('the floors lint rule', () => {
  it.each([
    // Core's floors, upwards (each of these ran up before issue 46).
    ['src-main/core/config/planted.ts', "import { crmAddress } from '../crm/crm-template';"],
    ['src-main/core/config/planted.ts', "import type { Profile } from '../profile';"],
    ['src-main/core/log/planted.ts', "import { stateFile } from '../config/state-file';"],
    [
      'src-main/core/api/planted.ts',
      "import type { TokenManager } from '../account/token-manager';",
    ],
    ['src-main/core/relay/planted.ts', "import { startReceiver } from '../account/receiver';"],
    ['src-main/core/calls/planted.ts', "import { frecency } from '../directory/call-affinity';"],
    ['src-main/core/calls/planted.ts', "export { csvLines } from '../contacts-io/contact-csv';"],
    ['src-main/core/favourites/planted.ts', "import { trayMenu } from '../desktop/tray-model';"],
    ['src-main/core/directory/planted.ts', "const m = await import('../callbar-core');"],
    // Sideways on one floor, where no sideways import is named.
    [
      'src-main/core/directory/planted.ts',
      "import { parseCsv } from '../contacts-io/contact-csv';",
    ],
    ['src-main/core/vault/planted.ts', "import { loadSettings } from '../config/settings-store';"],
    // Core never imports a process.
    ['src-main/core/desktop/planted.ts', "import '../../app/main';"],
    ['src-main/core/ipc/planted.ts', "import '../../preview/server';"],
    ['src-main/core/callbar-core.ts', "import '../cli/main';"],
    // A part of core on no floor yet imports nothing (and nothing may import it).
    ['src-main/core/unplaced.ts', "import { said } from './text/said';"],
    ['src-main/core/unplaced/part.ts', "import { said } from '../text/said';"],
    // The processes: each knows core and the contract, never another process.
    ['src-main/cli/planted.ts', "import '../app/main';"],
    ['src-main/preview/planted.ts', "import '../cli/main';"],
    ['src-shared/contract/planted.ts', "import '../../src-main/core/errors';"],
    ['src-preload/planted.ts', "import '../src-main/core/errors';"],
    ['src-renderer/src/planted.ts', "import '../../src-main/core/text/said';"],
    ['src-renderer/src/planted.ts', "import '../../src-preload/api';"],
    // The relay server uses core's primitives and device protocol, never the desktop's assembly.
    ['relay/planted.ts', "import '../src-main/core/callbar-core';"],
    ['relay/planted.ts', "import '../src-main/cli/main';"],
  ])('%s: %s fails', async (path, source) => {
    const errors = await violations(path, source);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/may not import/);
  });

  it.each([
    ['src-main/core/config/planted.ts', "import { writeFileAtomic } from '../files/atomic-write';"],
    ['src-main/core/log/planted.ts', "import { said } from '../text/said';"],
    ['src-main/core/account/planted.ts', "import { RelayLink } from '../relay/relay-link';"],
    ['src-main/core/directory/planted.ts', "import { partyCalls } from '../calls/call-history';"],
    [
      'src-main/core/contacts-io/planted.ts',
      "import { RequestPacer } from '../directory/request-pacer';",
    ],
    ['src-main/core/callbar-core.ts', "import { Directory } from './directory/directory';"],
    ['src-main/cli/planted.ts', "import { openProfile } from '../core/profile';"],
    ['src-renderer/src/planted.ts', "import type { Call } from '../../src-shared/contract';"],
    ['relay/planted.ts', "import { DEVICE_PATHS } from '../src-main/core/relay/relay-protocol';"],
  ])('%s: %s passes', async (path, source) => {
    expect(await violations(path, source)).toEqual([]);
  });

  it('is part of the project lint config', () => {
    expect(config).toEqual(expect.arrayContaining(layers));
  });

  it('puts every part of core on a floor, and only parts that exist', () => {
    const core = join(root, 'src-main/core');
    const parts = readdirSync(core, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() || entry.name.endsWith('.ts'))
      .map((entry) => entry.name)
      .sort();
    expect(CORE_FLOORS.flatMap((floor) => floor.parts).sort()).toEqual(parts);
  });

  it('is drawn in docs/architecture.md, floor by floor', () => {
    const doc = readFileSync(join(root, 'docs/architecture.md'), 'utf8');
    // The drawing's lines, a line that goes on indented joined to the one before.
    const drawing = doc
      .slice(doc.indexOf('## Floors'))
      .split('```')[1]!
      .replace(/\n\s+/g, ' ')
      .split('\n');
    for (const { floor, parts } of CORE_FLOORS) {
      const line = drawing.find((text) => text.startsWith(`${floor}  `));
      expect(line, floor).toBeDefined();
      for (const part of parts) {
        expect(line, `${floor}: ${part}`).toContain(part.endsWith('.ts') ? part : `${part}/`);
      }
    }
  });
});
