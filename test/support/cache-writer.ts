/**
 * Writes the directory cache of a profile again and again in a process of its own, as another
 * Callbar process of the profile does (the app beside the CLI): `rounds` times, alternating
 * between a directory of `sizes[0]` contacts and one of `sizes[1]` (each with its search texts),
 * printing {"writing": true} before the first write and {"done": n} after the last.
 *
 *   node --import tsx test/support/cache-writer.ts <dataDir> <rounds> <size> <size>
 */
import { writeCache } from '../../src-main/core/directory/directory-cache';
import { searchTextsOf } from '../../src-main/core/directory/search-texts';
import { generatedDirectory } from './generated-directory';

const [dataDir, rounds, ...sizes] = process.argv.slice(2);
if (dataDir === undefined || rounds === undefined || sizes.length !== 2) {
  throw new Error('usage: cache-writer.ts <dataDir> <rounds> <size> <size>');
}
/** Whose directory it writes (the test reads it as this owner's). */
const owner = {
  tenant_id: 'acme',
  user_extension: '201',
  base_url: 'http://127.0.0.1:1/',
};
const directories = sizes.map((size) => {
  const contacts = generatedDirectory(Number(size));
  return { contacts, texts: searchTextsOf(contacts, 'DE') };
});
console.log(JSON.stringify({ writing: true }));
for (let round = 0; round < Number(rounds); round++) {
  const { contacts, texts } = directories[round % 2]!;
  await writeCache(
    dataDir,
    {
      owner,
      synced_at: new Date().toISOString(),
      phonebooks: [{ id: 1, description: 'Company', priority: 1 }],
      contacts,
    },
    texts,
  );
}
console.log(JSON.stringify({ done: Number(rounds) }));
