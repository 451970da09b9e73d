/** The heap in use after a full garbage collection, in MiB (what a test's growth figures compare). */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

export function heapMiB(): number {
  collectGarbage();
  collectGarbage();
  return process.memoryUsage().heapUsed / 2 ** 20;
}

/** The process's resident set, in MiB. */
export function rssMiB(): number {
  return process.memoryUsage().rss / 2 ** 20;
}
