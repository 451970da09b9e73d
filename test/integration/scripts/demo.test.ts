/**
 * `npm run demo` as a newcomer meets it: `--help` and a wrong option answer in sentences; the
 * ports are options and the demo says which it uses; and the one line it prints makes a second
 * terminal's `callbar` (another shell, nothing inherited but HOME and PATH) reach the running
 * demo's profile, keyring and simulator: status, search and dial.
 *
 * The demo runs as `npm run demo` runs it (scripts/demo.mjs, which starts its own private D-Bus
 * session and keyring on a machine without one), with --no-build (the CLI is built by the global
 * setup; a stand-in renderer folder, as in preview-server.test.ts) and --state in a scratch folder,
 * so neither the checkout's build nor its .callbar-demo/ is touched.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { get } from 'node:http';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIM_PROFILES } from '../../../simulator/index';
import { completePortalFlow } from '../../../simulator/portal-driver';
import { freePort } from '../../support/free-port';
import { until } from '../../support/until';

const root = join(import.meta.dirname, '../../..');

/** This machine's environment without a D-Bus session or any Callbar setting: a fresh shell's. */
function freshEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, LC_ALL: '', LANG: 'C.UTF-8' };
  for (const name of Object.keys(env)) {
    if (name.startsWith('CALLBAR_') || name === 'DBUS_SESSION_BUS_ADDRESS') delete env[name];
  }
  return env;
}

function demoOnce(args: string[]) {
  return spawnSync(process.execPath, ['scripts/demo.mjs', ...args], {
    cwd: root,
    env: freshEnv(),
    encoding: 'utf8',
    timeout: 60_000,
  });
}

describe('npm run demo: its options', () => {
  it('--help prints the options, the ports among them, and exits 0', () => {
    const run = demoOnce(['--help']);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain('Usage: npm run demo [-- OPTIONS]');
    for (const option of [
      '--contacts N',
      '--profile NAME',
      '--state DIR',
      '--sim-port PORT',
      '--receiver-port PORT',
      '--preview-port PORT',
      '--no-open',
      '--no-build',
      '-h, --help',
    ]) {
      expect(run.stdout).toContain(option);
    }
    // Every profile the simulator has can be chosen (the demo's list is a copy of its).
    const profileHelp = run.stdout.slice(
      run.stdout.indexOf('--profile NAME'),
      run.stdout.indexOf('--state'),
    );
    for (const profile of SIM_PROFILES) expect(profileHelp).toContain(profile);
    expect(run.stderr).toBe('');
  });

  it('a wrong option or value is a sentence pointing at --help, never a stack trace', () => {
    const cases: [string[], string][] = [
      [['--bogus'], 'there is no option --bogus.'],
      [['--contacts'], '--contacts needs a value, e.g. --contacts 2000.'],
      [
        ['--receiver-port', '80'],
        '--receiver-port takes a whole number from 1024 to 65535, not "80".',
      ],
      // Ports browsers refuse (the portal's redirect, the preview and the portal would fail).
      [
        ['--receiver-port', '10080'],
        "--receiver-port 10080: web browsers refuse to connect to port 10080 (it is on the Fetch standard's list of blocked ports), so your browser could not reach the demo there; choose another port, such as 10081.",
      ],
      [['--preview-port', '6000'], '--preview-port 6000: web browsers refuse'],
      [['--sim-port', '6667'], '--sim-port 6667: web browsers refuse'],
      [['--open=yes'], '--open takes no value'],
      [['--profile', 'lean'], '--profile takes rich, minimal or variant, not "lean".'],
      [['demo'], 'the demo takes options only, not "demo".'],
    ];
    for (const [args, sentence] of cases) {
      const run = demoOnce(args);
      expect(run.status, args.join(' ')).toBe(2);
      expect(run.stderr).toContain(`npm run demo: ${sentence}`);
      expect(run.stderr).toContain('Run `npm run demo -- --help` for the options.');
      expect(run.stderr).not.toMatch(/ERR_PARSE_ARGS|\n\s+at /);
      expect(run.stdout).toBe('');
    }
  });

  it('a taken --receiver-port is said plainly, before anything starts', async () => {
    const taken = await listening();
    try {
      const port = (taken.address() as { port: number }).port;
      const run = demoOnce(['--no-build', '--no-open', '--receiver-port', String(port)]);
      expect(run.status).toBe(1);
      expect(run.stderr).toContain(
        `Port ${port} (--receiver-port) is taken: choose another for Callbar's receiver.`,
      );
      expect(run.stdout).not.toContain('Platform simulator at');
    } finally {
      taken.close();
    }
  });
});

describe('npm run demo: the ports it is given, and a second terminal', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'callbar-demo-test-'));
  let demo: ChildProcess;
  let output = '';
  let ports: { sim: number; receiver: number; preview: number };

  beforeAll(async () => {
    // A stand-in renderer: this test is about the demo and the CLI, not the window.
    const outDir = join(scratch, 'out');
    mkdirSync(join(outDir, 'renderer'), { recursive: true });
    mkdirSync(join(outDir, 'preview'), { recursive: true });
    writeFileSync(join(outDir, 'renderer/index.html'), '<!doctype html><title>Callbar</title>');
    writeFileSync(join(outDir, 'preview/bridge.js'), '');
    ports = { sim: await freePort(), receiver: await freePort(), preview: await freePort() };
    demo = spawn(
      process.execPath,
      [
        'scripts/demo.mjs',
        '--no-build',
        '--no-open',
        '--contacts',
        '40',
        // The journey below holds under every profile; this one gives least and differs most.
        '--profile',
        'variant',
        '--state',
        join(scratch, 'state'),
        '--sim-port',
        String(ports.sim),
        '--receiver-port',
        String(ports.receiver),
        '--preview-port',
        String(ports.preview),
      ],
      // Its own process group, stopped whole as Ctrl+C stops it in a terminal.
      { cwd: root, env: { ...freshEnv(), CALLBAR_OUT_DIR: outDir }, detached: true },
    );
    // Started when the preview prints its address (or failed when the demo ends first).
    await new Promise<void>((resolve, reject) => {
      const read = (chunk: Buffer) => {
        output += chunk.toString();
        if (/Callbar preview running at\s+http\S+/.test(output)) resolve();
      };
      demo.stdout!.on('data', read);
      demo.stderr!.on('data', read);
      demo.once('exit', (code) => reject(new Error(`the demo ended (${code}):\n${output}`)));
    });
  }, 90_000);

  afterAll(async () => {
    if (demo?.exitCode === null) {
      const exited = new Promise((done) => demo.once('exit', done));
      process.kill(-demo.pid!, 'SIGTERM');
      await exited;
    }
    rmSync(scratch, { recursive: true, force: true });
  });

  it('says which ports it uses, the ones given, and runs the simulator under the profile given', async () => {
    expect(output).toContain(`Platform simulator at http://127.0.0.1:${ports.sim} `);
    expect(output).toMatch(/\(tenant \S+, 40 contacts, profile variant\)/);
    const config = JSON.parse(await httpGet(`http://127.0.0.1:${ports.sim}/__sim/config`)) as {
      profile: string;
    };
    expect(config.profile).toBe('variant');
    expect(output).toContain(
      `Ports: the simulator ${ports.sim}, Callbar's receiver ${ports.receiver}, the web preview ${ports.preview}`,
    );
    expect(output).toContain(`http://127.0.0.1:${ports.preview}/#token=`);
  });

  it("prints one line after which another shell's callbar reaches the demo: status, search, dial", async () => {
    const line = /^ {2}(export .*)$/m.exec(output)?.[1];
    expect(line, output).toMatch(/^export CALLBAR_DATA_DIR='[^']+' DBUS_SESSION_BUS_ADDRESS='/);
    /** `callbar ARGS` in a new shell that ran the printed line first (and inherits nothing else). */
    const secondTerminal = (args: string) =>
      spawnSync('bash', ['-c', `${line}\nnode bin/callbar.mjs ${args}`], {
        cwd: root,
        env: { HOME: process.env.HOME, PATH: process.env.PATH, LANG: 'C.UTF-8' },
        encoding: 'utf8',
      });

    // Before connecting: the demo's profile, not an empty one or a missing keychain.
    const before = secondTerminal('status');
    expect(before.stdout + before.stderr).toContain('Not connected.');
    expect(before.status).toBe(3);

    // Connect in the window (its Connect button's call), then the portal's real forms.
    const address = new URL(/(http:\/\/127\.0\.0\.1:\d+\/#token=\S+)/.exec(output)![1]!);
    /** What the window asks of the preview's core (the page's own requests). */
    const window = async <T>(channel: string): Promise<T> => {
      const response = await fetch(`${address.origin}/__callbar/invoke/${channel}`, {
        method: 'POST',
        headers: {
          'x-callbar-session': address.hash.slice('#token='.length),
          origin: address.origin,
          'content-type': 'application/json',
        },
        body: '{}',
      });
      return ((await response.json()) as { value: T }).value;
    };
    const { connect_link } = await window<{ connect_link: string }>('account.connect');
    const opened = await fetch(connect_link, { redirect: 'manual' });
    const portal = new URL(opened.headers.get('location')!, connect_link).href;
    const answer = await completePortalFlow(portal, {
      username: 'alice',
      password: 'alice-pw-201',
      action: 'subscribe',
    });
    expect(answer.status).toBe(303);
    // The window synced the directory (as it does once connected): now the second terminal.
    await until('the window to sync the directory', async () => {
      const { state } = await window<{ state: string }>('directory.status');
      return state === 'ready' ? state : undefined;
    });

    const status = secondTerminal('status');
    expect(status.status, status.stderr).toBe(0);
    expect(status.stdout).toContain('Connected as extension 201');

    // A contact as the platform lists it (over REST), then found in the demo's local copy.
    const listed = secondTerminal('contacts list --page-size 1 --json');
    expect(listed.status, listed.stderr).toBe(0);
    const contact = (
      JSON.parse(listed.stdout) as { results: { id: number; display_name: string }[] }
    ).results[0]!;
    const search = secondTerminal(`search --json '${contact.display_name.replaceAll("'", '')}'`);
    expect(search.status, search.stderr).toBe(0);
    const found = JSON.parse(search.stdout) as { hits: { contact: { id: number } }[] };
    expect(found.hits.map((hit) => hit.contact.id)).toContain(contact.id);

    const dial = secondTerminal("dial '+44 20 7123 4567'");
    expect(dial.status, dial.stderr).toBe(0);
    const calls = JSON.parse(await httpGet(`http://127.0.0.1:${ports.sim}/__sim/calls`)) as {
      from: string;
      to: string;
    }[];
    expect(calls).toContainEqual(expect.objectContaining({ from: '201', to: '+442071234567' }));
    expect(secondTerminal('hangup').status).toBe(0);
  }, 120_000);
});

/** A GET on a connection of its own (a kept-alive one from the portal flow may have timed out). */
function httpGet(url: string): Promise<string> {
  return new Promise((resolve, reject) => {
    get(url, { agent: false }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve(body));
    }).on('error', reject);
  });
}

function listening(): Promise<Server> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => resolve(server));
  });
}
