/**
 * Reads one file to import as `callbar contacts import` does (readImportFile: the bounded read,
 * then the CSV or vCard parse) and prints one JSON line: how long it took, how far the process's
 * peak resident memory rose above what it held before, and the error it said, if any. A hardening
 * test runs it in a process of its own, so the peak is the parse's and not the test runner's.
 *
 *   node --import tsx test/support/hardening/read-import-child.ts <file>
 */
import { readImportFile } from '../../../src-main/core/contacts-io/import-file';
import { errorMessage } from '../../../src-main/core/errors';

const [file] = process.argv.slice(2);
if (!file) throw new Error('usage: read-import-child.ts <file>');

const MiB = 1024 * 1024;
const rssBefore = process.memoryUsage.rss();
const started = performance.now();
let error: string | undefined;
let rows: number | undefined;
try {
  rows = (await readImportFile(file)).rows.length;
} catch (caught) {
  error = errorMessage(caught);
}
const ms = performance.now() - started;
// maxRSS (KiB) is the process's peak so far: the parse's, unless start-up peaked higher (then
// this overstates the parse's growth, never understates it).
const peak = process.resourceUsage().maxRSS * 1024;
console.log(
  JSON.stringify({
    ms: Math.round(ms),
    peak_growth_mib: Math.max(0, (peak - rssBefore) / MiB),
    ...(rows === undefined ? {} : { rows }),
    ...(error === undefined ? {} : { error }),
  }),
);
