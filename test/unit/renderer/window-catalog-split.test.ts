/**
 * Issue 45: the window's catalog is split in two chunks per locale (scripts/window-catalogs.ts):
 * what the window shows at start, and the groups (SCREEN_GROUPS) only the screens loaded when
 * opened use, loaded with them (`withScreenTexts`). A module the window loads at start (main.tsx
 * and its static imports, transitively; `import()` and type-only imports are not followed) that
 * named a key of those groups would show the key instead of its text: this test fails then.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { catalogsOf } from '../../../src-shared/i18n/catalogs';
import { SCREEN_GROUPS } from '../../../scripts/window-catalogs';

const SRC = join(import.meta.dirname, '../../../src-renderer/src');

function parse(file: string): ts.SourceFile {
  return ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
}

/** The renderer modules main.tsx loads statically, transitively. */
function startModules(): Map<string, ts.SourceFile> {
  const found = new Map<string, ts.SourceFile>();
  const visit = (file: string) => {
    if (found.has(file)) return;
    const source = parse(file);
    found.set(file, source);
    for (const statement of source.statements) {
      if (!ts.isImportDeclaration(statement) && !ts.isExportDeclaration(statement)) continue;
      if (ts.isImportDeclaration(statement) && statement.importClause?.isTypeOnly) continue;
      if (ts.isExportDeclaration(statement) && statement.isTypeOnly) continue;
      const specifier = statement.moduleSpecifier;
      if (!specifier || !ts.isStringLiteral(specifier) || !specifier.text.startsWith('.')) continue;
      const base = resolve(dirname(file), specifier.text);
      for (const candidate of [`${base}.tsx`, `${base}.ts`, join(base, 'index.ts')]) {
        if (!candidate.startsWith(SRC)) continue;
        try {
          readFileSync(candidate);
        } catch {
          continue;
        }
        visit(candidate);
        break;
      }
    }
  };
  visit(join(SRC, 'main.tsx'));
  return found;
}

/** The texts of a module's string literals and template heads (comments are not read). */
function literals(source: ts.SourceFile): string[] {
  const texts: string[] = [];
  const walk = (node: ts.Node) => {
    if (
      ts.isStringLiteral(node) ||
      ts.isNoSubstitutionTemplateLiteral(node) ||
      ts.isTemplateHead(node)
    ) {
      texts.push(node.text);
    }
    ts.forEachChild(node, walk);
  };
  walk(source);
  return texts;
}

/** Every key of the English window catalog, dotted. */
function keysOf(catalog: object, prefix = ''): string[] {
  return Object.entries(catalog).flatMap(([key, value]) =>
    typeof value === 'string' ? [`${prefix}${key}`] : keysOf(value as object, `${prefix}${key}.`),
  );
}

describe("the window catalog's split: start and the screens loaded when opened", () => {
  it('names groups of the catalog', () => {
    const groups = Object.keys(catalogsOf('en').window);
    expect(SCREEN_GROUPS.filter((group) => !groups.includes(group))).toEqual([]);
    expect(SCREEN_GROUPS.length).toBeGreaterThan(5);
  });

  it('no module loaded at start names a key of the screens’ groups', () => {
    const modules = startModules();
    expect(modules.size).toBeGreaterThan(20);
    expect([...modules.keys()].some((file) => file.endsWith('SettingsView.tsx'))).toBe(false);
    const screenKeys = keysOf(catalogsOf('en').window).filter((key) =>
      SCREEN_GROUPS.includes(key.split('.')[0]!),
    );
    const uses: string[] = [];
    for (const [file, source] of modules) {
      for (const text of literals(source)) {
        // A key as written, or the start of one (`list.${what}.pages`).
        if (
          screenKeys.some((key) => key === text || (text.endsWith('.') && key.startsWith(text)))
        ) {
          uses.push(`${relative(SRC, file)}: ${text}`);
        }
      }
    }
    expect(uses).toEqual([]);
  });
});
