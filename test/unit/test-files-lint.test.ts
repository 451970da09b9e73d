/**
 * The tests, benchmarks and scripts are linted by oxlint, not ESLint (.oxlintrc.json's override
 * for them; eslint.config.js leaves them out): every rule ESLint's config would apply to such a
 * file is one oxlint applies, and a planted file fails each of the main ones.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ESLint } from 'eslint';
import { afterAll, describe, expect, it } from 'vitest';
import { oxlintFindings } from '../support/oxlint-findings';

const root = join(import.meta.dirname, '../..');

/** The config's comments are JSON's only departure in it. */
function oxlintOverride(): { files: string[]; rules: Record<string, unknown> } {
  const text = readFileSync(join(root, '.oxlintrc.json'), 'utf8').replace(/^\s*\/\/.*$/gm, '');
  const config = JSON.parse(text) as {
    overrides: { files: string[]; rules: Record<string, unknown> }[];
  };
  return config.overrides.find((override) => override.files.includes('test/**'))!;
}

/** ESLint's name for a rule → oxlint's (its own ESLint rules read TypeScript as well). */
function oxlintName(rule: string): string {
  const own = rule.replace(/^@typescript-eslint\//, '');
  if (['no-unused-vars', 'no-unused-expressions', 'no-array-constructor'].includes(own)) return own;
  return rule.startsWith('@typescript-eslint/') ? `typescript/${own}` : rule;
}

describe('the tests’ lint', () => {
  it('applies every rule ESLint’s config has for a test file', async () => {
    // As if the folders were not left out: ESLint's config for such a file, all of it.
    const eslint = new ESLint({ cwd: root, ignore: false });
    const config = (await eslint.calculateConfigForFile(join(root, 'test/unit/some.test.ts'))) as {
      rules: Record<string, unknown>;
    };
    const level = (setting: unknown): unknown => (Array.isArray(setting) ? setting[0] : setting);
    const enabled = Object.entries(config.rules)
      .filter(([, setting]) => level(setting) !== 0 && level(setting) !== 'off')
      .map(([rule]) => rule)
      // An octal literal is a TypeScript error (TS1121), reported by the lint's --type-check.
      .filter((rule) => rule !== 'no-octal');
    expect(enabled.length).toBeGreaterThan(50);
    const applied = Object.keys(oxlintOverride().rules);
    expect(enabled.map(oxlintName).filter((rule) => !applied.includes(rule))).toEqual([]);
  });

  const project = mkdtempSync(join(tmpdir(), 'callbar-test-lint-'));
  afterAll(() => rmSync(project, { recursive: true, force: true }));

  it('fails a planted test file on each of the main rules', async () => {
    // The repo's config beside a test folder of its own: the override's globs are the config's.
    copyFileSync(join(root, '.oxlintrc.json'), join(project, '.oxlintrc.json'));
    mkdirSync(join(project, 'test/unit'), { recursive: true });
    writeFileSync(
      join(project, 'test/unit/planted.test.ts'),
      [
        "import { CallbarError } from '../../src-main/core/errors';",
        '// @ts-ignore',
        'const unused = 1;',
        'export function f(a: any, b: number, _c: number): CallbarError | undefined {',
        '  if (a == b) {',
        '  }',
        '  debugger;',
        "  return require('node:fs');",
        '}',
        '',
      ].join('\n'),
    );
    const rules = await oxlintFindings(['test'], project);
    expect(rules).toEqual(
      [
        'ban-ts-comment',
        'consistent-type-imports',
        'eqeqeq',
        'no-debugger',
        'no-empty',
        'no-explicit-any',
        'no-require-imports',
        'no-unused-vars',
      ].sort(),
    );
  });
});
