/**
 * No user-facing text is written straight into the window's code: every text a person reads
 * comes from the `window` catalog (src-shared/i18n/locales/<locale>/window.json) through `t()`.
 * The renderer's sources are parsed with the TypeScript compiler and the test fails on
 * - JSX text with a letter in it (`<p>Saved.</p>`),
 * - a string with a letter given to a prop a person reads (`aria-label="Close"`, `title`,
 *   `placeholder`, `alt`, `label`, `hint`, …) or put in JSX as an expression (`{'Saved'}`),
 * - any other string literal that reads like words for a person: it starts with a capital
 *   letter followed by a small one, or has two words and ends in `.`, `…`, `?` or `!`.
 * Non-text (symbols like `⋯`, `+`, key names, CSS classes, test ids) passes; the few exceptions
 * are listed in ALLOWED with why.
 */
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import {
  hasLetter,
  isCode as isCodeIn,
  readsLikeWords,
  sourceFiles,
  templateText,
} from '../../support/sentence-scan';

const ROOT = join(import.meta.dirname, '../../../src-renderer/src');

/** Props whose value a person reads (or hears). */
const TEXT_PROPS = new Set([
  'aria-label',
  'aria-description',
  'aria-roledescription',
  'aria-valuetext',
  'title',
  'placeholder',
  'alt',
  'label',
  'hint',
  'submit',
  'heading',
  'description',
  'text',
  'emptyText',
  'cancel',
  'confirm',
]);

/**
 * Strings that look like words but are not text to translate, as `file: text`.
 */
const ALLOWED = new Set<string>([
  // Names of products, the same in every language.
  'App.tsx: Callbar',
  'AboutView.tsx: Electron',
  'AboutView.tsx: Node',
  // Accelerator key names (Electron's, not words), and the Mac and Windows keys' own names.
  ...['Insert', 'Up', 'Down', 'Left', 'Right', 'Return'].map((key) => `shortcut-keys.ts: ${key}`),
  ...['Cmd', 'Option', 'Win'].map((key) => `shortcut-label.ts: ${key}`),
]);

/** Strings that are never text: they start like one but are identifiers, keys or formats. */
const NOT_TEXT = [
  /^[A-Z][a-zA-Z]*(\+[A-Z][a-zA-Z0-9]*)+$/, // accelerators: CommandOrControl+Shift+D
  /^(Arrow|Page)(Up|Down|Left|Right)$/,
  /^(Enter|Escape|Home|End|Tab|Backspace|Delete|Space|Shift|Control|Alt|Meta|CommandOrControl|Command|Super|F\d+)$/,
];

/** Calls whose first string argument names something: `t('key')`, `includes('x')`, selectors. */
const NAMING_CALLS = new Set([
  't',
  'require',
  'querySelector',
  'getElementById',
  'includes',
  'startsWith',
  'endsWith',
  'get',
  'getItem',
  'setItem',
]);

/** Whether a string literal is code, not text: an import, a type, a key, a comparison, a key. */
const isCode = (node: ts.Node) => isCodeIn(node, NAMING_CALLS);

/** The hardcoded texts of one file (`name` relative to src-renderer/src), as `name:line: text`. */
function hardcodedTexts(name: string, text: string): string[] {
  const source = ts.createSourceFile(name, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const found: string[] = [];
  const report = (node: ts.Node, text: string) => {
    const trimmed = text.trim().replace(/\s+/g, ' ');
    const key = `${name.split('/').pop()}: ${trimmed}`;
    if (ALLOWED.has(key) || NOT_TEXT.some((pattern) => pattern.test(trimmed))) return;
    const line = source.getLineAndCharacterOfPosition(node.getStart()).line + 1;
    found.push(`${name}:${line}: ${trimmed}`);
  };
  const visit = (node: ts.Node) => {
    if (ts.isJsxText(node) && hasLetter(node.text)) report(node, node.text);
    else if (ts.isJsxAttribute(node) && node.initializer) {
      const prop = node.name.getText(source);
      const value = node.initializer;
      if (TEXT_PROPS.has(prop) && ts.isStringLiteral(value) && hasLetter(value.text)) {
        report(value, value.text);
      }
    } else if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) {
      const inTextProp =
        ts.isJsxAttribute(node.parent) || (ts.isJsxExpression(node.parent) && hasLetter(node.text));
      if (!ts.isJsxAttribute(node.parent) && !isCode(node)) {
        if (inTextProp || (hasLetter(node.text) && readsLikeWords(node.text)))
          report(node, node.text);
      }
    } else if (ts.isTemplateExpression(node) && !isCode(node)) {
      const text = templateText(node);
      if (readsLikeWords(text.trim())) report(node, node.getText(source));
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('the window has no text written in its code', () => {
  it('takes every text a person reads from the window catalog', () => {
    const found = sourceFiles(ROOT).flatMap((path) =>
      hardcodedTexts(relative(ROOT, path), readFileSync(path, 'utf8')),
    );
    expect(found).toEqual([]);
  });

  it('finds text written into a view, and passes keys, symbols and code', () => {
    const sample = [
      `export const A = () => <p title="Close the dialog" className="note">Saved.</p>;`,
      `const B = 'Call failed';`,
      `export const C = () => <button aria-label={t('close')}>⋯</button>;`,
      `export const D = (ok: boolean) => <p>{ok ? 'Done' : t('failed')}</p>;`,
      `const E = { kind: 'ArrowDown', key: 'CommandOrControl+Shift+D' };`,
      `export const F = (n: string) => <p>{\`Hello \${n}.\`}</p>;`,
    ].join('\n');
    expect(hardcodedTexts('sample.tsx', sample).map((hit) => hit.split(': ')[1])).toEqual([
      'Close the dialog',
      'Saved.',
      'Call failed',
      'Done',
      '`Hello ${n}.`',
    ]);
  });
});
