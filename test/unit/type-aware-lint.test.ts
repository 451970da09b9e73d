/**
 * The type-aware lint (.oxlintrc.json: oxlint with tsgolint, TypeScript 7's checker; part of
 * `npm run lint` and so of `npm test`): each rule that needs types fails a planted file, and the
 * same file written right passes. A config that loses its plugin or its rules reports nothing at
 * all, so what must fail is asserted one rule at a time. And `npm run lint`'s oxlint reports
 * TypeScript's own errors (`--type-check`): it is the suite's type check.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { oxlintFindings } from '../support/oxlint-findings';

const root = join(import.meta.dirname, '../..');
const project = mkdtempSync(join(tmpdir(), 'callbar-lint-'));
writeFileSync(
  join(project, 'tsconfig.json'),
  JSON.stringify({
    compilerOptions: { strict: true, target: 'ES2023', module: 'NodeNext', noEmit: true },
  }),
);
afterAll(() => rmSync(project, { recursive: true, force: true }));

/**
 * The rules (`typescript/…`) and TypeScript errors (`TS2322`…) the repo's config reports for
 * `source` as a TypeScript file, oxlint run with `flags`.
 */
async function reported(
  name: string,
  source: string,
  flags: readonly string[] = ['--type-aware'],
): Promise<string[]> {
  writeFileSync(join(project, name), source);
  return oxlintFindings(['--config', join(root, '.oxlintrc.json'), ...flags, name], project);
}

const later = 'export async function later(): Promise<number> {\n  return Promise.resolve(1);\n}\n';

describe('the type-aware lint', () => {
  it.each([
    ['no-floating-promises', 'export function f(): void {\n  void 0;\n  later();\n}\n'],
    [
      'no-misused-promises',
      'export function f(items: number[]): boolean {\n  return items.some(async () => later());\n}\n',
    ],
    [
      'no-unsafe-member-access',
      "export function f(): unknown {\n  const data = JSON.parse('{}');\n  return data?.id as unknown;\n}\n",
    ],
    [
      'switch-exhaustiveness-check',
      "export function f(side: 'in' | 'out'): number {\n  switch (side) {\n    case 'in':\n      return 1;\n  }\n  return 0;\n}\n",
    ],
    ['await-thenable', 'export async function f(): Promise<number> {\n  return await 1;\n}\n'],
  ])('fails %s', async (rule, body) => {
    expect(await reported(`${rule}.ts`, later + body)).toContain(rule);
  });

  it('passes the same code written right', async () => {
    const right =
      later +
      'export async function f(items: number[], side: "in" | "out"): Promise<number> {\n' +
      '  const found = await Promise.all(items.map(async () => later()));\n' +
      '  switch (side) {\n    case "in":\n      return found.length;\n    case "out":\n      return 0;\n  }\n}\n';
    expect(await reported('right.ts', right)).toEqual([]);
  });

  it("reports TypeScript's own errors as `npm run lint` runs it (the suite's type check)", async () => {
    const lint = (
      JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
        scripts: { lint: string };
      }
    ).scripts.lint;
    const flags = lint
      .split('&&')
      .map((command) => command.trim().split(/\s+/))
      .find(([program]) => program === 'oxlint')!
      .slice(1);
    expect(
      await reported('type-error.ts', "export const count: number = 'one';\n", flags),
    ).toContain('TS2322');
  });
});
