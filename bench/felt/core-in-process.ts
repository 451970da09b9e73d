/**
 * The felt figures taken inside one process: the core started on the felt profile (its cached
 * directory loaded and indexed) answers the typed queries through its IPC router alone (what
 * Electron's ipcMain handler calls; no transport) and directly; its heap with the directory
 * indexed; and a tel: link to the click-to-dial request leaving (the confirmation turned off:
 * the time is Callbar's parsing, classification, guard and request building).
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { writeFileSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { startCore } from '../../src-main/core/callbar-core';
import { settingsFilePath } from '../../src-main/core/config/settings-store';
import { openDialLink } from '../../src-main/core/desktop/shell-actions';
import { silentLogger } from '../../src-main/core/log/logger';
import { openProfile } from '../../src-main/core/profile';
import { spread, type Spread } from './spread';
import type { FeltProfile } from './felt-profile';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** Heap in use plus the typed arrays' buffers, after two collections, MB. */
function heapMb(): number {
  gc();
  gc();
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  return (heapUsed + arrayBuffers) / 2 ** 20;
}

export interface InProcessFigures {
  /** The typed queries through router.invoke('directory.search'). */
  router: Spread;
  /** The same queries through directory.search (the index alone). */
  direct: Spread;
  /** The core's heap growth with the directory indexed, MB. */
  heapMb: number;
  /** tel: link → the click-to-dial request created. */
  telToRequest: Spread;
}

export async function coreInProcess(
  felt: FeltProfile,
  queries: readonly string[],
  dials: number,
): Promise<InProcessFigures> {
  writeFileSync(settingsFilePath(felt.dataDir), JSON.stringify({ confirm_web_links: false }));
  const before = heapMb();
  const profile = openProfile({ env: { ...process.env, ...felt.env }, log: silentLogger });
  const core = await startCore({ runtime: 'preview', profile, openUrl: () => Promise.resolve() });
  try {
    const heap = heapMb() - before;
    const router: number[] = [];
    const direct: number[] = [];
    for (let round = 0; round < 2; round++) {
      for (const query of queries) {
        let started = performance.now();
        const result = await core.router.invoke('directory.search', { query, limit: 200 });
        if (round > 0) router.push(performance.now() - started);
        if (!result.ok) throw new Error(result.error.message);
        started = performance.now();
        core.directory.search(query, 200);
        if (round > 0) direct.push(performance.now() - started);
      }
    }
    return {
      router: spread(router, 3),
      direct: spread(direct, 3),
      heapMb: Number(heap.toFixed(1)),
      telToRequest: spread(await linkToRequest(core.router, dials), 3),
    };
  } finally {
    await core.close();
  }
}

/** Each link's time from openDialLink to the POST to call control being created (undici). */
async function linkToRequest(
  router: Parameters<typeof openDialLink>[0],
  dials: number,
): Promise<number[]> {
  let sentAt: number | undefined;
  const onRequest = (message: unknown) => {
    const { request } = message as { request: { method: string; path: string } };
    if (request.method === 'POST' && request.path.includes('call_control')) {
      sentAt ??= performance.now();
    }
  };
  subscribe('undici:request:create', onRequest);
  const times: number[] = [];
  try {
    for (let i = 0; i < dials; i++) {
      // A new number each time (a repeated destination is held back by the dial guard).
      const link = `tel:+49-30-5550-${String(1000 + i).padStart(4, '0')}`;
      sentAt = undefined;
      const started = performance.now();
      const plan = await openDialLink(router, link);
      if (plan.notice) throw new Error(plan.notice.body);
      if (sentAt === undefined) throw new Error(`no request left for ${link}`);
      times.push(sentAt - started);
    }
  } finally {
    unsubscribe('undici:request:create', onRequest);
  }
  return times;
}
