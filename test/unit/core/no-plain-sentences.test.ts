/**
 * Core says what a person reads by catalog key (`said('errors:…')`, src-main/core/text/said.ts),
 * so the window, the CLI, the tray and the landing pages word it in the reader's language. This
 * scan parses src-main/core with the TypeScript compiler (test/support/sentence-scan.ts, as the
 * window's scan does) and fails, naming file:line, on a string or template literal that reads
 * like a sentence anywhere but
 * - a log call (`log.info/warn/error/debug`, `console.*`): logs stay English, they are for
 *   support, not for the user;
 * - `details:` (what only someone looking into a failure needs, behind "Details") and an
 *   error class's `name`;
 * - the files of ALLOWED, each with why its sentences stay English and how many it has: a new
 *   sentence there fails too, until it is said by key or counted here with its reason.
 */
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { sentencesIn, sourceFiles } from '../../support/sentence-scan';

const ROOT = join(import.meta.dirname, '../../..');
const CORE = join(ROOT, 'src-main/core');

/** Calls whose first string argument names something (a catalog key, a module, an event). */
const NAMING_CALLS = new Set(['said', 't', 'require', 'has', 'get', 'includes', 'startsWith']);

const LOG_METHODS = new Set(['info', 'warn', 'error', 'debug']);

/** Files whose sentences stay English on purpose, as `path: [how many, why]`. */
const ALLOWED: Record<string, [number, string]> = {
  'config/policy/policy-templates.ts': [
    2,
    'the macOS profile’s texts (the ADMX/ADML are worded from the policy catalog)',
  ],
  'config/policy/registry-policy.ts': [1, 'a registry path'],
  'config/policy/reg-file.ts': [1, 'the .reg file header regedit writes'],
  'calls/call-history-csv.ts': [1, 'CSV column headings: a file format, read back as it is'],
  'contacts-io/contact-record.ts': [3, 'CSV column headings Callbar reads back on import'],
  'desktop/login-item.ts': [6, 'the keys of a .desktop autostart file'],
  'account/receiver.ts': [
    11,
    'HTTP answers to the platform (a program) and to programs probing the port, like logs',
  ],
  'account/webhook-auth.ts': [1, 'an HTTP answer to the platform (a program)'],
  'account/activation.ts': [6, 'HTTP answers to the platform’s activation calls (a program)'],
  'config/data-dir.ts': [1, 'a folder name (Application Support)'],
  'desktop/external-url.ts': [1, 'a refused URL, in a sentence for the log'],
  'account/body-signature.ts': [3, 'a startup error about environment variables, for admins'],
  'http/bounded-json.ts': [6, 'HTTP answers to a program whose request body is refused'],
  'http/request-body.ts': [3, 'HTTP answers to a program whose request body is refused'],
  'http/header-list.ts': [1, 'a startup error about an environment variable, for admins'],
  'ipc/router.ts': [2, 'answers to a renderer that broke the contract (a bug, never a person)'],
  'desktop/ipc-registration.ts': [1, 'the answer to a frame that may not talk to core'],
  'relay/relay-link.ts': [1, 'a programming error (no address given)'],
  'stop-signals.ts': [1, 'printed by a CLI on a second Ctrl+C, before it exits'],
  'desktop/update-decision.ts': [6, 'update reasons: logged, not shown (the app updates itself)'],
  'desktop/update-plan.ts': [4, 'update reasons: logged, not shown'],
  'vault/keytar-vault.ts': [1, 'the keychain entry’s label for the system keychain'],
  'directory/search-texts.ts': [
    5,
    'sample names folded to fingerprint how the stored search texts were made (never shown)',
  ],
  'browser/host-registration.ts': [
    11,
    'folders and registry keys the browsers look in, the host manifest’s description and the launcher’s comment (files for browsers and shells)',
  ],
};

/** Whether `node` is a log call, `details:` or an error class's name: not for the person. */
function notForThePerson(node: ts.Node): boolean {
  if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)) {
    const { expression: object, name } = node.expression;
    if (ts.isIdentifier(object) && object.text === 'console') return true;
    return LOG_METHODS.has(name.text) && /log/i.test(object.getText());
  }
  if (ts.isPropertyAssignment(node) && ts.isIdentifier(node.name)) {
    return node.name.text === 'details';
  }
  // this.name = 'ApiError'; override readonly name = 'ReceiverRejection'
  if (ts.isBinaryExpression(node) && /\.name$/.test(node.left.getText())) return true;
  if (ts.isPropertyDeclaration(node) && node.name.getText() === 'name') return true;
  return false;
}

/** Single words (`Callbar`, `Linux`, `AppData`) and headers are names, not sentences. */
const NOT_A_SENTENCE = [
  /^[\p{L}\d_-]+$/u,
  /^`Bearer \$\{/,
  /^[A-Z][a-zA-Z]*(\+[A-Z][a-zA-Z0-9]*)+$/, // accelerators: CommandOrControl+Shift+D
  /^`\$\{[^}]+\} [KMG]iB`$/, // sizes: 12 KiB
];

/** The plain sentences of one core file (`name` relative to src-main/core), as `name:line: text`. */
function plainSentences(name: string, code: string): string[] {
  return sentencesIn(name, code, { namingCalls: NAMING_CALLS, skip: notForThePerson })
    .filter(({ text }) => !NOT_A_SENTENCE.some((pattern) => pattern.test(text)))
    .map(({ line, text }) => `${name}:${line}: ${text}`);
}

const found = sourceFiles(CORE).flatMap((path) =>
  plainSentences(relative(CORE, path), readFileSync(path, 'utf8')),
);
const inFile = (file: string) => found.filter((hit) => hit.split(':')[0] === file);

describe('core says what a person reads by catalog key', () => {
  it('has no sentence written into the code outside the allowed files', () => {
    const outside = found.filter((hit) => {
      const file = hit.split(':')[0]!;
      return !(file in ALLOWED);
    });
    expect(outside).toEqual([]);
  });

  it('has exactly as many sentences in the allowed files as counted, each with its reason', () => {
    for (const [file, [count, why]] of Object.entries(ALLOWED)) {
      const hits = inFile(file);
      // Exactly as many: one more fails, and one converted lowers the count here.
      expect(hits.length, `${file} (counted ${count}: ${why}):\n${hits.join('\n')}`).toBe(count);
      expect(why.trim(), file).not.toBe('');
    }
  });

  it('finds sentences in errors, answers and template literals, and passes logs and keys', () => {
    const sample = [
      `throw new CallbarError('x', 'The file is empty.');`,
      `const reason = \`No news for \${minutes} minutes; Callbar stopped.\`;`,
      `log.warn('the relay refused this device', { id });`,
      `throw new CallbarError('x', said('errors:import.empty'));`,
      `const e = { details: \`\${endpoint} answered HTTP \${status}.\` };`,
      `this.name = 'ApiError';`,
      `return { display: 'Unknown caller' };`,
    ].join('\n');
    expect(plainSentences('sample.ts', sample)).toEqual([
      'sample.ts:1: The file is empty.',
      'sample.ts:2: `No news for ${minutes} minutes; Callbar stopped.`',
      'sample.ts:7: Unknown caller',
    ]);
  });
});
