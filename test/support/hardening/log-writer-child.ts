/**
 * A process of the profile writing its log: `count` lines through the real file logger with a
 * cap of `maxBytes`, looking after each at the rotated file (`<path>.1`) and printing, at the
 * end, the smallest it saw (every one is a log that was full when rotated) as JSON.
 *
 *   node --import tsx test/support/hardening/log-writer-child.ts <path> <maxBytes> <count> <name>
 */
import { lstatSync } from 'node:fs';
import { createFileLogger } from '../../../src-main/core/log/logger';

const [path, maxBytes, count, name] = process.argv.slice(2);
if (!path || !maxBytes || !count || !name)
  throw new Error('usage: <path> <maxBytes> <count> <name>');
const log = createFileLogger(path, 'info', Number(maxBytes));
let smallestRotated = Number.POSITIVE_INFINITY;
for (let index = 0; index < Number(count); index++) {
  // Lines of one length, whichever process writes them (names padded): a full file is one
  // line short of the cap at most.
  log.info('line', { writer: name.padEnd(16), index: String(index).padStart(6, '0') });
  try {
    smallestRotated = Math.min(smallestRotated, lstatSync(`${path}.1`).size);
  } catch {
    // Not rotated yet.
  }
}
console.log(JSON.stringify({ smallestRotated }));
