import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  INSTALLATION_ID_FILE,
  installationId,
} from '../../../../src-main/core/desktop/installation-id';
import { silentLogger } from '../../../../src-main/core/log/logger';

describe("the installation's rollout id", () => {
  it('is made once, stored owner-only with its format version, and kept', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'callbar-id-'));
    const id = await installationId(dir, silentLogger);
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const file = join(dir, INSTALLATION_ID_FILE);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ version: 1, id });
    if (process.platform !== 'win32') expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(await installationId(dir, silentLogger)).toBe(id);
  });

  it('replaces an unreadable or unknown-version file with a new id', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'callbar-id-'));
    const file = join(dir, INSTALLATION_ID_FILE);
    writeFileSync(file, JSON.stringify({ version: 2, id: 'x' }));
    const id = await installationId(dir, silentLogger);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ version: 1, id });
  });
});
