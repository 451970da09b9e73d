/**
 * How `callbar` answers a mistyped command line: one line saying what is wrong
 * and one saying where to read more, exit 2; near misses get a suggestion; a group's noun alone
 * shows that group. None of these needs the platform.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCallbar, runCallbarInProcess } from '../../support/cli-process';

const dataDir = mkdtempSync(join(tmpdir(), 'callbar-usage-'));
const env = { CALLBAR_DATA_DIR: dataDir };
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const lines = (text: string) => text.split('\n').filter((line) => line.trim() !== '');

describe('callbar usage errors', () => {
  it.each([
    [['dance'], 'unknown command "dance"', "Run 'callbar help'."],
    [['contact', 'list'], 'Did you mean "callbar contacts list"?', "Run 'callbar help'."],
    [['contacts', 'lst'], 'Did you mean "callbar contacts list"?', "Run 'callbar help'."],
    [['stauts'], 'Did you mean "callbar status"?', "Run 'callbar help'."],
    [['dial'], '"callbar dial" needs TARGET.', "Run 'callbar help dial'."],
    [['hangup', 'a', 'b'], 'unexpected argument "b"', "Run 'callbar help hangup'."],
    [['status', '--chek'], 'Did you mean "--check"?', "Run 'callbar help status'."],
    [
      ['activate', '--timeout', 'soon'],
      '--timeout must be a positive number',
      "Run 'callbar help activate'.",
    ],
    [
      ['contacts', 'list', '--page', 'two'],
      '--page must be a whole number',
      "Run 'callbar help contacts list'.",
    ],
    [
      ['contacts', 'list', '--ordering', '-priority'],
      'write --ordering=-VALUE',
      "Run 'callbar help contacts list'.",
    ],
    [
      ['contacts', 'list', '--search'],
      '--search needs a value.',
      "Run 'callbar help contacts list'.",
    ],
    [['status', '--json=1'], '--json takes no value.', "Run 'callbar help status'."],
    // An option with a short form is named as typed in the help (before: "-o, needs a value.").
    [
      ['calls', 'export', '--output'],
      '--output needs a value.',
      "Run 'callbar help calls export'.",
    ],
    [
      ['contacts', 'export', '-o'],
      '--output needs a value.',
      "Run 'callbar help contacts export'.",
    ],
    [
      ['browser', 'status', '--browser'],
      '--browser needs a value.',
      "Run 'callbar help browser status'.",
    ],
    [
      ['contacts', 'create', '--name', 'Ada'],
      '--phonebook is required.',
      "Run 'callbar help contacts create'.",
    ],
  ])('callbar %j: exit 2, what is wrong, where to read more', async (args, problem, pointer) => {
    const result = await runCallbarInProcess(args, env);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    const said = lines(result.stderr);
    expect(said.length).toBeLessThanOrEqual(3);
    expect(said[0]).toContain(problem);
    expect(said.at(-1)).toBe(pointer);
  });

  it('a group alone shows its commands, exit 0', async () => {
    const result = await runCallbarInProcess(['contacts'], env);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Usage: callbar contacts COMMAND');
    for (const verb of ['list', 'show', 'create', 'update', 'delete', 'bulk-delete']) {
      expect(result.stdout).toContain(`contacts ${verb}`);
    }
    expect(result.stdout).not.toContain('phonebooks list');
  });

  it('help COMMAND and COMMAND --help show that command; --version the version', async () => {
    const help = await runCallbarInProcess(['help', 'contacts', 'create'], env);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: callbar contacts create --phonebook ID/);
    const flag = await runCallbarInProcess(['dial', '--help'], env);
    expect(flag.stdout).toMatch(/^Usage: callbar dial TARGET/);
    const version = await runCallbar(['--version'], env);
    expect(version.stdout).toMatch(/^\d+\.\d+\.\d+$/);
    // The bin's start writes nothing else: a V8 flag the CLI sets (main.ts) that this Node's V8
    // did not know would print "Error: unrecognized flag" on stderr before every command.
    expect(version.stderr).toBe('');
  });

  it('no command: the whole help, every registered group in it', async () => {
    const result = await runCallbarInProcess([], env);
    expect(result.code).toBe(0);
    for (const title of ['Account:', 'Phonebooks:', 'Contacts:', 'Calls:']) {
      expect(result.stdout).toContain(title);
    }
  });
});
