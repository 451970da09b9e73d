/**
 * No module of core or the relay over 500 lines (issue 46), as a lint rule of eslint.config.js:
 * a planted module of 501 lines fails it there, one of 500 passes, and a longer file elsewhere
 * (a test) is not held to it.
 */
import { join } from 'node:path';
import { ESLint } from 'eslint';
import { expect, it } from 'vitest';

const root = join(import.meta.dirname, '../..');
const eslint = new ESLint({ cwd: root });

async function tooLong(path: string, lines: number): Promise<boolean> {
  const source = Array.from({ length: lines }, (_, index) => `export const x${index} = ${index};`);
  const [result] = await eslint.lintText(`${source.join('\n')}\n`, {
    filePath: join(root, path),
  });
  return result!.messages.some((message) => message.ruleId === 'max-lines');
}

it.each([
  ['src-main/core/directory/planted.ts', 501, true],
  ['src-main/core/directory/planted.ts', 500, false],
  ['relay/planted.ts', 501, true],
  ['test/unit/planted.test.ts', 800, false],
])('%s of %i lines: too long %s', async (path, lines, expected) => {
  expect(await tooLong(path, lines)).toBe(expected);
});
