/**
 * The felt benchmark's start part alone, for profiling: builds the preview once (kept in
 * CALLBAR_PROBE_OUT when given), caches `size` contacts on a profile, then starts the bundled
 * preview `runs` times and prints spawn → address and spawn → first result. Extra node flags for
 * the preview (e.g. --cpu-prof) come from CALLBAR_PROBE_NODE_ARGS. Several bundles of a kept build
 * (CALLBAR_PROBE_MAIN=before.mjs,after.mjs) are started in turn, one start each, `runs` times, so
 * they are compared in the same machine state. CALLBAR_PROBE_CALLS=n writes n ended calls to the
 * profile's call log first (the felt bench's profile holds its dials' calls when it reaches 100k).
 * CALLBAR_PROBE_READABLE=1 builds without minifying, for a profile with the functions' names.
 *
 *   bash scripts/with-keyring.sh tsx bench/felt/start-probe.ts [size] [runs]
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openVault } from '../../src-main/core/vault/keytar-vault';
import { generateDirectory } from '../search-data';
import { buildFelt, ROOT } from './build';
import { feltProfile } from './felt-profile';
import { startPreview } from './preview-start';
import type { CallRecord } from '../../src-main/core/calls/call-log-format';
import type { DirectoryContact } from '../../src-shared/contract';

/** `count` ended outgoing calls to the directory's contacts, newest first, as calls.json holds them. */
function writeEndedCalls(
  felt: Awaited<ReturnType<typeof feltProfile>>,
  contacts: readonly DirectoryContact[],
  count: number,
): void {
  const now = Date.now();
  const owner = {
    tenant_id: felt.account.tenant_id,
    user_extension: felt.account.user_extension,
    base_url: felt.account.base_url,
  };
  const records: CallRecord[] = Array.from({ length: count }, (_, index) => {
    const contact = contacts[(index * 7919) % contacts.length]!;
    const at = now - (index + 1) * 60_000;
    return {
      call: {
        id: `probe-${index}`,
        direction: 'outgoing',
        state: 'ended',
        party: { number: contact.number, display: contact.number },
        source: 'ui',
        started_at: new Date(at).toISOString(),
        ended_at: new Date(at + 30_000).toISOString(),
        leg_ids: [`leg-${index}`],
      },
      owner,
      legs: [{ id: `leg-${index}`, state: 'ended' }],
      started_ms: at,
      updated_ms: at + 30_000,
      news_ms: at + 30_000,
      delivery_keys: [],
      events: [],
    };
  });
  writeFileSync(
    join(felt.dataDir, 'calls.json'),
    JSON.stringify({
      version: 1,
      calls: records,
      cleared_ms: 0,
      retired_legs: [],
      removed_ids: [],
    }),
    { mode: 0o600 },
  );
}

const size = Number(process.argv[2] ?? 100_000);
const runs = Number(process.argv[3] ?? 5);
const keep = process.env.CALLBAR_PROBE_OUT;
const built =
  keep && existsSync(join(keep, 'preview-main.mjs'))
    ? {
        outDir: keep,
        previewMain: join(keep, 'preview-main.mjs'),
        remove: () => undefined,
      }
    : await buildFelt({ readable: process.env.CALLBAR_PROBE_READABLE === '1' });
if (keep) console.log(`build: ${built.outDir}`);
const felt = await feltProfile((dataDir) => openVault({ dataDir }));
try {
  const { contacts, priorities } = generateDirectory(size);
  // With a format-4 file beside, for a build from before issue 45 among the bundles.
  await felt.cache(contacts, priorities, true);
  const calls = Number(process.env.CALLBAR_PROBE_CALLS ?? 0);
  if (calls > 0) writeEndedCalls(felt, contacts, calls);
  const nodeArgs = (process.env.CALLBAR_PROBE_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const mains = (process.env.CALLBAR_PROBE_MAIN ?? 'preview-main.mjs').split(',');
  const results = new Map(
    mains.map((main) => [main, [] as { address: number; first: number; cpu: number }[]]),
  );
  for (let i = 0; i < runs; i++) {
    for (const main of mains) {
      const bundle = { ...built, previewMain: join(built.outDir, main) };
      const preview = await startPreview(bundle, felt.env, 'mar', nodeArgs);
      results.get(main)!.push({
        address: preview.addressMs,
        first: preview.firstResultMs,
        cpu: preview.firstResultCpuMs,
      });
      await preview.stop();
    }
  }
  const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  for (const [main, starts] of results) {
    console.log(
      JSON.stringify({
        size,
        main,
        runs: starts.map((r) => [Math.round(r.address), Math.round(r.first), r.cpu]),
        address_ms: Math.round(median(starts.map((r) => r.address))),
        first_result_ms: Math.round(median(starts.map((r) => r.first))),
        first_result_cpu_ms: median(starts.map((r) => r.cpu)),
        root: ROOT,
      }),
    );
  }
} finally {
  await felt.close();
  if (!keep) built.remove();
}
