/**
 * Words outside the window come from the catalogs: a scan of the CLI, the tray, the
 * notifications, the shell's dialogs and the landing page fails on a sentence written into the
 * code where a person reads it (printed, thrown as a usage error or a CallbarError, or put into a
 * menu item, a notification or a dialog). Codes, keys and machine output are not sentences.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../../..');

function sources(folder: string): string[] {
  return readdirSync(join(root, folder), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .map((file) => join(root, folder, file));
}

/** A string or template literal that starts with a letter: a sentence, not a key or a code. */
const TEXT = String.raw`['"\x60](?=[A-Za-z(])`;

const RULES: { where: string[]; pattern: RegExp; what: string }[] = [
  {
    where: sources('src-main/cli'),
    pattern: new RegExp(String.raw`\bio\.(?:out|err)\(\s*${TEXT}`),
    what: 'printed text',
  },
  {
    where: sources('src-main/cli'),
    pattern: new RegExp(String.raw`new UsageError\(\s*${TEXT}`),
    what: 'a usage error',
  },
  {
    where: sources('src-main/cli'),
    pattern: new RegExp(String.raw`new CallbarError\(\s*'[\w]+',\s*${TEXT}`),
    what: 'an error message',
  },
  {
    where: sources('src-main/cli/commands'),
    pattern: /^\s*(?:summary|help):\s*['"`]/m,
    what: 'a command summary or help',
  },
  {
    where: [
      'src-main/core/desktop/tray-model.ts',
      'src-main/core/desktop/notification-planner.ts',
      'src-main/core/desktop/shell-actions.ts',
      'src-main/core/account/landing-page.ts',
      'src-main/app/main.ts',
      'src-main/app/os-integration.ts',
    ].map((file) => join(root, file)),
    pattern: new RegExp(
      String.raw`\b(?:label|title|body|message|detail):\s*${TEXT}|buttons:\s*\[\s*${TEXT}`,
    ),
    what: 'a menu item, notification, dialog or page text',
  },
];

describe('no text written into the code outside the window', () => {
  for (const { where, pattern, what } of RULES) {
    it(`has no ${what} outside the catalogs`, () => {
      const found = where.flatMap((file) =>
        readFileSync(file, 'utf8')
          .split('\n')
          .flatMap((line, index) =>
            pattern.test(line) ? [`${relative(root, file)}:${index + 1}: ${line.trim()}`] : [],
          ),
      );
      expect(found).toEqual([]);
    });
  }

  it('catches what it is for', () => {
    expect(RULES[0]!.pattern.test(`ctx.io.err('Hung up.');`)).toBe(true);
    expect(RULES[0]!.pattern.test(`ctx.io.out(JSON.stringify(value));`)).toBe(false);
    expect(RULES[2]!.pattern.test(`new CallbarError('not_found', \`No contact \${id}.\`)`)).toBe(
      true,
    );
    expect(RULES[4]!.pattern.test(`{ title: 'Incoming call', body: caller(call) }`)).toBe(true);
    expect(RULES[4]!.pattern.test(`title: t('notification.incomingTitle'),`)).toBe(false);
  });
});
