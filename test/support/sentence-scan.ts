/**
 * Finds sentences written into TypeScript code, by its syntax tree (the `typescript` package):
 * what the no-hardcoded-text scans of the window and of core read. A sentence is a string or
 * template literal that reads like words for a person (a capital letter and a small one, or two
 * words ending in `.`, `…`, `?`, `!` or `:`); code is not one (imports, types, property names,
 * comparisons, switch cases, element access, catalog keys given to `t`/`said`).
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

/** The `.ts`/`.tsx` files below `dir`, at any depth. */
export function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sourceFiles(join(dir, entry.name))
      : /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')
        ? [join(dir, entry.name)]
        : [],
  );
}

export const hasLetter = (text: string) => /\p{L}/u.test(text);

/** Whether `text` reads like words for a person rather than a key, a code or a format. */
export const readsLikeWords = (text: string) =>
  /^\p{Lu}\p{Ll}/u.test(text) || (/\p{L}+\s+\p{L}+/u.test(text) && /[.…?!:]$/u.test(text));

/** The text of a template literal with its placeholders as spaces. */
export function templateText(node: ts.TemplateExpression): string {
  return [node.head.text, ...node.templateSpans.map((span) => span.literal.text)].join(' ');
}

/**
 * Whether a string literal is code, not text: an import, a type, a property's name, a
 * comparison, a case, an element access, or the first argument of a call in `namingCalls`
 * (plain functions such as `t`, or methods such as `includes`).
 */
export function isCode(node: ts.Node, namingCalls: ReadonlySet<string>): boolean {
  const parent = node.parent;
  if (ts.isImportDeclaration(parent) || ts.isExportDeclaration(parent)) return true;
  if (ts.isExternalModuleReference(parent) || ts.isImportTypeNode(parent)) return true;
  if (ts.isLiteralTypeNode(parent)) return true;
  if ((ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) && parent.name === node)
    return true;
  if (ts.isElementAccessExpression(parent)) return true;
  if (ts.isCaseClause(parent)) return true;
  if (
    ts.isBinaryExpression(parent) &&
    [
      ts.SyntaxKind.EqualsEqualsEqualsToken,
      ts.SyntaxKind.ExclamationEqualsEqualsToken,
      ts.SyntaxKind.InKeyword,
    ].includes(parent.operatorToken.kind)
  )
    return true;
  if (ts.isCallExpression(parent) && parent.arguments[0] === node) {
    const callee = parent.expression;
    if (ts.isIdentifier(callee)) return namingCalls.has(callee.text);
    if (ts.isPropertyAccessExpression(callee)) return namingCalls.has(callee.name.text);
  }
  return false;
}

/** One sentence found: where, and the literal as written. */
export interface Sentence {
  node: ts.Node;
  line: number;
  text: string;
}

/**
 * The string and template literals of `source` that read like words and are not code, skipping
 * any subtree `skip` says is not for a person (e.g. a log call's arguments).
 */
export function sentencesIn(
  name: string,
  code: string,
  options: { namingCalls: ReadonlySet<string>; skip?: (node: ts.Node) => boolean },
): Sentence[] {
  const kind = name.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const source = ts.createSourceFile(name, code, ts.ScriptTarget.Latest, true, kind);
  const found: Sentence[] = [];
  const report = (node: ts.Node, text: string) =>
    found.push({
      node,
      line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1,
      text,
    });
  const visit = (node: ts.Node): void => {
    if (options.skip?.(node)) return;
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) {
      const text = node.text.trim().replace(/\s+/g, ' ');
      if (hasLetter(text) && readsLikeWords(text) && !isCode(node, options.namingCalls))
        report(node, text);
    } else if (ts.isTemplateExpression(node)) {
      if (readsLikeWords(templateText(node).trim()) && !isCode(node, options.namingCalls))
        report(node, node.getText(source).replace(/\s+/g, ' '));
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}
