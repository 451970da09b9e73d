/**
 * What a keystroke's search costs core's one thread, part by part, in process (not part of
 * `npm run bench`): the felt benchmark's typed queries (bench/felt/typing.ts) asked of a core
 * started on a cached directory, each part timed in CPU and the memory it allocates (garbage the
 * next scavenge walks), per query. CPU time and allocation hardly depend on what else runs on the
 * machine, unlike the wall-clock figures of the felt benchmark.
 *
 *   bash scripts/with-keyring.sh node --expose-gc --max-semi-space-size=64 \
 *     --min-semi-space-size=64 --import tsx bench/felt-router-cost.ts [contacts]
 *
 * (A young generation larger than 20 queries' garbage, so no scavenge runs inside a measured
 * batch.) Parts: router.invoke('directory.search') whole; directory.search (the index alone);
 * the contract's check of the answer (zod); sayAgainIn (core's sentences worded again); the
 * channel's JSON text of the answer.
 */
import { startCore } from '../src-main/core/callbar-core';
import { silentLogger } from '../src-main/core/log/logger';
import { openProfile } from '../src-main/core/profile';
import { sayAgainIn, translatorFor } from '../src-main/core/text/translators';
import { openVault } from '../src-main/core/vault/keytar-vault';
import { channels } from '../src-shared/contract';
import { feltProfile } from './felt/felt-profile';
import { typedQueries, typingScript } from './felt/typing';
import { generateDirectory } from './search-data';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('Run with node --expose-gc (see the comment at the top).');
const size = Number(process.argv[2] ?? 100_000);
const LIMIT = 50;
const BATCH = 20;
const ROUNDS = 5;

const felt = await feltProfile((dataDir) => openVault({ dataDir }));
try {
  const { contacts, priorities } = generateDirectory(size);
  await felt.cache(contacts, priorities);
  const queries = typedQueries(typingScript(contacts, 500));
  const profile = openProfile({ env: { ...process.env, ...felt.env }, log: silentLogger });
  const core = await startCore({ runtime: 'preview', profile, openUrl: () => Promise.resolve() });
  try {
    const words = translatorFor('en', 'errors');
    const spec = channels['directory.search'];
    const answers: unknown[] = [];
    for (const query of queries) {
      const result = await core.router.invoke('directory.search', { query, limit: LIMIT });
      if (!result.ok) throw new Error(result.error.message);
      answers.push(result.value);
    }
    const parts: Record<string, (at: number) => unknown> = {
      'router.invoke (whole)': (at) =>
        core.router.invoke('directory.search', { query: queries[at]!, limit: LIMIT }),
      'directory.search (the index)': (at) => core.directory.search(queries[at]!, LIMIT),
      'the answer checked (zod)': (at) => spec.response.safeParse(answers[at]),
      sayAgainIn: (at) => sayAgainIn(words, answers[at]),
      'the answer as JSON': (at) =>
        JSON.stringify({ id: 1, result: { ok: true, value: answers[at] } }),
    };
    console.log(`${size.toLocaleString('en')} contacts, ${queries.length} queries, limit ${LIMIT}`);
    for (const [name, part] of Object.entries(parts)) {
      let bytes = 0;
      for (let start = 0; start < queries.length; start += BATCH) {
        gc();
        const before = process.memoryUsage().heapUsed;
        for (let at = start; at < Math.min(queries.length, start + BATCH); at++) await part(at);
        bytes += process.memoryUsage().heapUsed - before;
      }
      const cpu = process.cpuUsage();
      for (let round = 0; round < ROUNDS; round++) {
        for (let at = 0; at < queries.length; at++) await part(at);
      }
      const used = process.cpuUsage(cpu);
      const cpuMs = (used.user + used.system) / 1000 / (ROUNDS * queries.length);
      const kb = bytes / queries.length / 1024;
      console.log(
        `  ${name.padEnd(30)} ${cpuMs.toFixed(3)} ms CPU, ${kb.toFixed(1)} KB allocated a query`,
      );
    }
    const json = answers.map((answer) => JSON.stringify({ ok: true, value: answer }).length);
    json.sort((a, b) => a - b);
    console.log(`  the answer's JSON: median ${json[json.length >> 1]} bytes`);
  } finally {
    await core.close();
  }
} finally {
  await felt.close();
}
