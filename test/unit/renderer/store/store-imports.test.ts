import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const store = join(import.meta.dirname, '../../../../src-renderer/src/store');

/** Each store module and the store modules it imports (type-only imports included). */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const name of readdirSync(store).filter((file) => file.endsWith('.ts'))) {
    const text = readFileSync(join(store, name), 'utf8');
    const targets = [...text.matchAll(/from '\.\/([\w-]+)'/g)].map((match) => `${match[1]}.ts`);
    graph.set(name, targets);
  }
  return graph;
}

describe('the renderer store', () => {
  it('has no import cycle, type-only ones included (slice.ts no longer imports app-store.ts)', () => {
    const graph = importGraph();
    expect(graph.size).toBeGreaterThan(4);
    const cycles: string[] = [];
    const visit = (name: string, path: string[]) => {
      if (path.includes(name)) {
        cycles.push([...path.slice(path.indexOf(name)), name].join(' → '));
        return;
      }
      for (const next of graph.get(name) ?? []) visit(next, [...path, name]);
    };
    for (const name of graph.keys()) visit(name, []);
    expect(cycles).toEqual([]);
  });
});
