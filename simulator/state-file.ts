/**
 * A simulator that keeps its sessions across runs: the tokens it issued and the integrations'
 * activation records are read from a JSON file at start and written back whenever they change
 * (checked once a second) and at close. The world comes back from its seed; contact changes and
 * calls are not kept. For the demo's --state folder (scripts/demo.mjs), never for tests.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { ActivationRecord } from './integrations';
import type { Platform } from './platform';
import type { TokenSnapshot } from './tokens';

interface KeptState {
  tokens: TokenSnapshot;
  activations: [string, ActivationRecord[]][];
}

/** Restores `file` into `platform` (when there is one) and keeps it up to date until stop(). */
export function keepState(
  platform: Pick<Platform, 'tokens' | 'integrations'>,
  file: string,
): { stop: () => void } {
  if (existsSync(file)) {
    const kept = JSON.parse(readFileSync(file, 'utf8')) as KeptState;
    platform.tokens.restore(kept.tokens);
    platform.integrations.restoreRecords(kept.activations);
  }
  let written = '';
  const save = () => {
    const text = JSON.stringify({
      tokens: platform.tokens.snapshot(),
      activations: platform.integrations.snapshotRecords(),
    } satisfies KeptState);
    if (text === written) return;
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    writeFileSync(`${file}.tmp`, text, { mode: 0o600 });
    renameSync(`${file}.tmp`, file);
    written = text;
  };
  save();
  const timer = setInterval(save, 1000);
  timer.unref();
  return {
    stop: () => {
      clearInterval(timer);
      save();
    },
  };
}
