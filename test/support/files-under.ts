/** The regular files below a folder, at any depth, as paths: what the leak and litter checks read. */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

/** Everything a profile folder holds on disk, as one text: what a search for a leaked secret reads. */
export function profileText(dir: string): string {
  return filesUnder(dir)
    .map((path) => readFileSync(path, 'utf8'))
    .join('\n');
}
