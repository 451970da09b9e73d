/**
 * The suite's ports (test/support/free-port.ts) across processes: `npm test` runs its stages side
 * by side, and a port one process chose but had not bound yet was chosen again by another (a
 * demo's simulator found its port taken). Two processes drawing hundreds of ports each at the
 * same time never get the same one; at random from the range, they would share several.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const freePortModule = join(import.meta.dirname, '../../support/free-port.ts');
const DRAWS = 400;

/** A process that draws ports, says them, and stays alive (its ports held) until told to end. */
function drawer() {
  const script = `
    const { freePort } = await import(${JSON.stringify(freePortModule)});
    const ports = [];
    for (let i = 0; i < ${DRAWS}; i += 1) ports.push(await freePort());
    console.log(JSON.stringify(ports));
    process.stdin.resume();
    process.stdin.on('end', () => process.exit(0));`;
  const child = spawn(process.execPath, [
    '--import',
    'tsx',
    '--input-type=module',
    '--eval',
    script,
  ]);
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const ports = new Promise<number[]>((resolve, reject) => {
    child.stdout.on('data', () => {
      if (out.includes('\n')) resolve(JSON.parse(out) as number[]);
    });
    child.once('exit', (code) => reject(new Error(`the drawer ended (${code}) before its ports`)));
  });
  return { child, ports };
}

describe('freePort across processes', () => {
  it('never hands one port to two live processes', async () => {
    const drawers = [drawer(), drawer()];
    try {
      const [first, second] = await Promise.all(drawers.map((one) => one.ports));
      expect(new Set(first).size).toBe(DRAWS);
      expect(new Set(second).size).toBe(DRAWS);
      expect(first!.filter((port) => second!.includes(port))).toEqual([]);
    } finally {
      for (const { child } of drawers) {
        const ended = once(child, 'exit');
        child.stdin.end();
        await ended;
      }
    }
  }, 60_000);
});
