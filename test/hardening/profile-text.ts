/** Everything a profile folder holds on disk, as one text: what a search for a leaked secret reads. */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

export function profileText(dir: string): string {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((name) => join(dir, name))
    .filter((path) => statSync(path).isFile())
    .map((path) => readFileSync(path, 'utf8'))
    .join('\n');
}
