// `npm run demo`: builds Callbar, starts the built-in platform simulator, registers Callbar's
// loopback receiver with it (the exact URLs and headers `callbar status --json` reports, as a
// person registers them with the platform), then runs Callbar against it: in Electron when the
// Electron binary is installed, otherwise in the web preview (printing its address and opening a
// browser if there is one). The demo uses its own profile folder (.callbar-demo/), never your
// real one, and prints the line that points a second terminal's `callbar` at it.
//
//   npm run demo [-- --help] [-- OPTIONS]   (the options: USAGE below)
//
// Without a desktop D-Bus session (a container, ssh, CI) the demo runs itself again inside
// scripts/with-keyring.sh: a private D-Bus session with its own keyring. Each run is a new
// simulator, and without a desktop keyring a throwaway keyring: the session is gone at the next
// run. --state DIR (or CALLBAR_DEMO_STATE=DIR) keeps it: the simulator's port, seed, client
// credentials, tokens and activations, Callbar's profile and (without a desktop keyring) the
// private keyring all live in DIR, so the next run with the same DIR is still connected.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { forgetLastRun } from './demo-profile.mjs';
import { DEMO_SEED, seedDemoRegion } from './demo-region.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
process.chdir(root);
const require = createRequire(import.meta.url);
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';

/** Callbar's receiver port unless configured otherwise (settings.ts's receiver_port default). */
const DEFAULT_RECEIVER_PORT = 37153;

const USAGE = `Usage: npm run demo [-- OPTIONS]

Builds Callbar, starts the platform simulator and runs Callbar against it (in Electron when
its binary is installed, otherwise as a web preview in your browser), with its own profile
(.callbar-demo/) and, without a desktop keyring, a private one.

Options:
  --contacts N         How many contacts the simulator makes up (default 500)
  --profile NAME       The simulator's choices where the platform's contract is silent: rich
                       (default), minimal or variant (simulator/README.md#profiles)
  --state DIR          Keep the session across runs in DIR (also CALLBAR_DEMO_STATE=DIR)
  --sim-port PORT      The simulator's port (default: any free port; with --state, the kept one)
  --receiver-port PORT Callbar's receiver port (default ${DEFAULT_RECEIVER_PORT}, or a free one when it is taken)
  --preview-port PORT  The web preview's port (default: any free port)
  --no-open            Print the web preview's address instead of opening a browser
  --no-build           Use the last build (\`npm run build\`) instead of building first
  -h, --help           Show this help

The demo prints the ports it uses, and the line that points \`callbar\` in a second terminal
at its profile and keyring. More: docs/usage.md#trying-callbar-the-demo`;

/** The simulator's profiles (SIM_PROFILES in simulator/options.ts), for --profile. */
const SIM_PROFILES = ['rich', 'minimal', 'variant'];

/** What a value looks like, for an option given without one. */
const EXAMPLES = {
  '--contacts': '2000',
  '--profile': 'minimal',
  '--state': '~/.callbar-demo-state',
  '--sim-port': '8089',
  '--receiver-port': '37154',
  '--preview-port': '8080',
};

/** Stops the demo before it starts anything, with a sentence and the way to the help. */
function usageError(message) {
  process.stderr.write(
    `npm run demo: ${message}\nRun \`npm run demo -- --help\` for the options.\n`,
  );
  process.exit(2);
}

/** The options, checked: an unknown one, a missing value or a bad number says so plainly. */
function readOptions(argv) {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      allowNegative: true,
      options: {
        contacts: { type: 'string', default: '500' },
        profile: { type: 'string', default: 'rich' },
        state: { type: 'string', default: process.env.CALLBAR_DEMO_STATE || undefined },
        'sim-port': { type: 'string' },
        'receiver-port': { type: 'string' },
        'preview-port': { type: 'string' },
        open: { type: 'boolean', default: true },
        build: { type: 'boolean', default: true },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (error) {
    // Node's own messages speak of positional arguments; say it as a person would.
    const option = /'(-{1,2}[\w-]+)/.exec(error.message)?.[1];
    const argument = /'([^']*)'/.exec(error.message)?.[1];
    if (error.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
      usageError(`there is no option ${option ?? argument}.`);
    } else if (error.code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') {
      usageError(`the demo takes options only, not "${argument}".`);
    } else if (/argument missing/.test(error.message)) {
      usageError(`${option} needs a value, e.g. ${option} ${EXAMPLES[option] ?? '1'}.`);
    } else if (/does not take an argument/.test(error.message)) {
      usageError(
        `${option} takes no value (it is on or off: ${option} or --no-${option.slice(2)}).`,
      );
    } else {
      usageError(error.message);
    }
  }
  const { values } = parsed;
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    process.exit(0);
  }
  const contacts = wholeNumber(values.contacts, '--contacts', 0, 200_000);
  if (!SIM_PROFILES.includes(values.profile)) {
    usageError(
      `--profile takes ${SIM_PROFILES.slice(0, -1).join(', ')} or ${SIM_PROFILES.at(-1)}, not "${values.profile}".`,
    );
  }
  return {
    contacts: String(contacts),
    profile: values.profile,
    state: values.state,
    simPort: port(values['sim-port'], '--sim-port'),
    receiverPort: port(values['receiver-port'], '--receiver-port'),
    previewPort: port(values['preview-port'], '--preview-port'),
    open: values.open,
    build: values.build,
  };
}

function wholeNumber(text, option, min, max) {
  const value = /^\d{1,9}$/.test(text) ? Number(text) : NaN;
  if (!(value >= min && value <= max)) {
    usageError(`${option} takes a whole number from ${min} to ${max}, not "${text}".`);
  }
  return value;
}

/**
 * The ports browsers refuse to connect to (the Fetch standard's "bad ports"): core's one list
 * (src-main/core/http/browser-refused-ports.ts), read as JSON since this script is plain Node.
 */
const BROWSER_REFUSED_PORTS = new Set(require('../src-main/core/http/browser-refused-ports.json'));

function port(text, option) {
  if (text === undefined) return undefined;
  const value = wholeNumber(text, option, 1024, 65535);
  if (BROWSER_REFUSED_PORTS.has(value)) {
    let suggestion = value + 1;
    while (BROWSER_REFUSED_PORTS.has(suggestion)) suggestion += 1;
    usageError(
      `${option} ${value}: web browsers refuse to connect to port ${value} (it is on the Fetch standard's list of blocked ports), so your browser could not reach the demo there; choose another port, such as ${suggestion}.`,
    );
  }
  return value;
}

const options = readOptions(process.argv.slice(2));
const stateDir = options.state ? resolve(options.state) : undefined;

/**
 * Runs this demo again inside scripts/with-keyring.sh (a private D-Bus session and keyring) and
 * exits as it does. Ctrl+C reaches both (one process group); this process only waits.
 */
function againWithKeyring(env) {
  const again = spawn(
    'bash',
    ['scripts/with-keyring.sh', process.execPath, 'scripts/demo.mjs', ...process.argv.slice(2)],
    { stdio: 'inherit', env: { ...env, CALLBAR_DEMO_WRAPPED: '1' } },
  );
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.on(signal, () => again.kill(signal === 'SIGINT' ? 'SIGINT' : 'SIGTERM'));
  }
  again.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

const privateBus = process.env.CALLBAR_PRIVATE_DBUS;
const keyringDir = stateDir ? join(stateDir, 'keyring') : undefined;
if (!process.env.DBUS_SESSION_BUS_ADDRESS && !privateBus && !process.env.CALLBAR_DEMO_WRAPPED) {
  // No desktop session: a private one, its keyring kept in DIR/keyring with --state.
  againWithKeyring({
    ...process.env,
    ...(keyringDir ? { CALLBAR_KEYRING_DIR: keyringDir } : {}),
  });
} else if (keyringDir && privateBus && privateBus !== keyringDir) {
  // Inside a throwaway keyring (e.g. a `with-keyring.sh bash` shell), which would lose the
  // session: with --state, the demo runs again on a private keyring kept in DIR/keyring.
  const env = { ...process.env, CALLBAR_KEYRING_DIR: keyringDir };
  delete env.CALLBAR_PRIVATE_DBUS;
  delete env.DBUS_SESSION_BUS_ADDRESS;
  againWithKeyring(env);
} else {
  await runDemo();
}

async function runDemo() {
  const children = [];
  let stopping = false;
  /** Stops Callbar and the simulator, and exits once they have (the preview stores the session). */
  async function stopAll(code) {
    if (stopping) return;
    stopping = true;
    await Promise.all(
      children.map(
        (child) =>
          new Promise((done) => {
            if (child.exitCode !== null || child.signalCode !== null) return done();
            child.once('exit', done);
            child.kill('SIGTERM');
          }),
      ),
    );
    process.exit(code);
  }
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => stopAll(0));

  if (options.build) {
    console.log('Building Callbar… (--no-build uses the last build)');
    const build = spawnSync(npm, ['run', '--silent', 'build'], {
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    if (build.status !== 0) process.exit(build.status ?? 1);
  } else if (
    !existsSync('out/cli/callbar.js') ||
    !existsSync('out/preview-server/main.js') ||
    !existsSync(join(process.env.CALLBAR_OUT_DIR ?? 'out', 'renderer/index.html'))
  ) {
    usageError('there is no build to use yet: run `npm run build` first, or leave out --no-build.');
  }

  const kept = stateDir ? await keptSimulator() : undefined;
  const simPort = options.simPort ?? kept?.port ?? 0;
  if (kept && options.simPort !== undefined && options.simPort !== kept.port) {
    fail(
      `The demo kept in ${stateDir} runs its simulator on port ${kept.port} (its session belongs to that address): leave out --sim-port, or use another --state folder.`,
    );
  }
  if (simPort !== 0) {
    await needFree(
      simPort,
      kept
        ? `Port ${simPort}, where the demo kept in ${stateDir} runs its simulator, is taken (is that demo running?).`
        : `Port ${simPort} (--sim-port) is taken: choose another for the simulator.`,
    );
  }
  const receiverPort = await chooseReceiverPort();
  const receiver = `http://127.0.0.1:${receiverPort}`;
  const electron = electronBinary();
  const previewPort = electron ? undefined : (options.previewPort ?? (await freePort()));
  if (options.previewPort !== undefined && !electron) {
    await needFree(
      previewPort,
      `Port ${previewPort} (--preview-port) is taken: choose another for the web preview.`,
    );
  }

  const sim = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'simulator/main.ts',
      '--port',
      String(simPort),
      '--contacts',
      kept?.contacts ?? options.contacts,
      '--profile',
      options.profile,
      '--seed',
      String(kept?.seed ?? DEMO_SEED),
      ...(kept
        ? [
            '--client-id',
            kept.client_id,
            '--client-secret',
            kept.client_secret,
            '--state',
            join(stateDir, 'simulator.json'),
          ]
        : []),
      '--activation-url',
      `${receiver}/activate`,
      '--deactivation-url',
      `${receiver}/deactivate`,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  children.push(sim);
  sim.on('exit', (code) => {
    if (stopping) return;
    console.error(`The simulator stopped (${code}).`);
    void stopAll(1);
  });
  const info = JSON.parse(
    await new Promise((resolve) => createInterface({ input: sim.stdout }).once('line', resolve)),
  );

  const dataDir = stateDir ? join(stateDir, 'profile') : join(root, '.callbar-demo');
  if (!stateDir && !forgetLastRun(dataDir)) {
    console.log(
      'A Callbar still runs with the demo profile (.callbar-demo/): its contacts and calls stay.',
    );
  }
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  seedDemoRegion(dataDir);
  const settings = {
    base_url: info.base_url,
    portal_url: info.portal_url,
    client_id: info.client_id,
    receiver_port: receiverPort,
  };
  writeDemoSettings(dataDir, settings);
  const env = {
    ...process.env,
    CALLBAR_DATA_DIR: dataDir,
    CALLBAR_BASE_URL: settings.base_url,
    CALLBAR_PORTAL_URL: settings.portal_url,
    CALLBAR_CLIENT_ID: settings.client_id,
    CALLBAR_CLIENT_SECRET: info.client_secret,
    CALLBAR_RECEIVER_PORT: String(receiverPort),
  };
  delete env.CALLBAR_DEMO_WRAPPED;
  await register(info, env);

  const user = info.users[0];
  console.log(`
Platform simulator at ${info.base_url} (tenant ${info.tenant_id}, ${kept?.contacts ?? options.contacts} contacts, profile ${info.profile}).
Ports: the simulator ${new URL(info.base_url).port}, Callbar's receiver ${receiverPort}${
    previewPort ? `, the web preview ${previewPort}` : ''
  } (--sim-port, --receiver-port${previewPort ? ', --preview-port' : ''} choose them).${
    stateDir
      ? `
Kept in ${stateDir}: the next \`npm run demo -- --state ${options.state}\` is still connected
(if Callbar shows Connected already, there is nothing more to do).`
      : `
Nothing is kept after this run (a new simulator each time): \`npm run demo -- --state DIR\` keeps the session.`
  }
Click "Connect…" in Callbar, then sign in to the portal as
  username ${user.username}   password ${user.password}   (extension ${user.extension})
and press Subscribe. Other users: ${info.users
    .slice(1)
    .map((u) => `${u.username}/${u.password}`)
    .join(', ')}.

In a second terminal, this line points \`callbar\` at the demo's profile${privateBus ? ' and keyring' : ''} (while the demo runs):
  ${secondTerminalLine(dataDir)}
then e.g. \`npm run -s callbar -- search smi luk\` once Callbar shows Connected.
`);

  const app = electron
    ? spawn(npx, ['electron-vite', 'preview'], { stdio: 'inherit', env })
    : spawn(
        process.execPath,
        [
          'out/preview-server/main.js',
          '--port',
          String(previewPort),
          ...(options.open ? [] : ['--no-open']),
        ],
        { stdio: 'inherit', env },
      );
  if (!electron) console.log('No Electron binary here: starting the web preview.');
  children.push(app);
  app.on('exit', (code) => {
    if (!stopping) void stopAll(code ?? 0);
  });

  /**
   * Registers the receiver's addresses with the simulator: the Webhook URL ends in the demo
   * profile's secret (kept in the keychain), registered as `callbar status --json` reports it,
   * the way a person registers it with the platform.
   */
  async function register(info, env) {
    const status = spawnSync(process.execPath, ['bin/callbar.mjs', 'status', '--json'], {
      env,
      encoding: 'utf8',
    });
    let registration;
    try {
      registration = JSON.parse(status.stdout).receiver;
    } catch {
      console.error(`callbar status --json failed: ${status.stderr}`);
      return stopAll(1);
    }
    if (registration.problem) console.log(registration.problem);
    const registered = await fetch(`${info.base_url}/__sim/integrations/callbar`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        activation_url: registration.activation_url,
        deactivation_url: registration.deactivation_url,
        webhook_url: registration.webhook_url,
        extra_headers: registration.headers,
      }),
    });
    if (!registered.ok) {
      console.error(
        `Registering the Webhook URL failed: ${registered.status} ${await registered.text()}`,
      );
      return stopAll(1);
    }
  }

  function fail(message) {
    console.error(message);
    return stopAll(1);
  }

  /** Stops the demo, saying `taken`, when `port` is taken. */
  async function needFree(port, taken) {
    if (!(await portIsFree(port))) await fail(taken);
  }

  /**
   * --receiver-port when given (and free); else the default port, or a free one when it is taken
   * (said out loud: a platform that registered the default port would not reach this Callbar).
   */
  async function chooseReceiverPort() {
    if (options.receiverPort !== undefined) {
      await needFree(
        options.receiverPort,
        `Port ${options.receiverPort} (--receiver-port) is taken: choose another for Callbar's receiver.`,
      );
      return options.receiverPort;
    }
    if (await portIsFree(DEFAULT_RECEIVER_PORT)) return DEFAULT_RECEIVER_PORT;
    const port = await freePort();
    console.log(
      `Port ${DEFAULT_RECEIVER_PORT}, Callbar's default receiver port, is taken (another Callbar or demo?),
so this demo's receiver listens on ${port} instead (--receiver-port chooses it). The demo's
simulator registers http://127.0.0.1:${port}/activate, /deactivate and /events/<secret> as its
Activation, Deactivation and Webhook URLs; a platform that registered the default port would not
reach this Callbar. To use the same port outside the demo, set CALLBAR_RECEIVER_PORT=${port} and
register those URLs with the platform.`,
    );
    return port;
  }
}

/**
 * The line a second terminal runs so its `callbar` uses the demo's profile (whose settings name
 * the demo's simulator) and, without a desktop keyring, the demo's private D-Bus session and
 * keyring: `export …` for a POSIX shell, `$env:…` for PowerShell.
 */
function secondTerminalLine(dataDir) {
  const variables = { CALLBAR_DATA_DIR: dataDir };
  if (privateBus) variables.DBUS_SESSION_BUS_ADDRESS = process.env.DBUS_SESSION_BUS_ADDRESS;
  const quoted = (value) => `'${value.replaceAll("'", "'\\''")}'`;
  if (process.platform === 'win32') {
    return Object.entries(variables)
      .map(([name, value]) => `$env:${name} = '${value.replaceAll("'", "''")}'`)
      .join('; ');
  }
  return `export ${Object.entries(variables)
    .map(([name, value]) => `${name}=${quoted(value)}`)
    .join(' ')}`;
}

/**
 * Writes the demo's platform into the demo profile's settings.json (keeping any other setting
 * chosen there), so any `callbar` given this profile reaches the demo's simulator. The client
 * secret is not a setting: it stays in the environment, and the keychain once connected.
 */
function writeDemoSettings(dataDir, settings) {
  const file = join(dataDir, 'settings.json');
  let current = {};
  if (existsSync(file)) {
    try {
      current = JSON.parse(readFileSync(file, 'utf8'));
    } catch {
      console.error(`${file} is not JSON: delete it (it is the demo's own profile) and run again.`);
      process.exit(1);
    }
  }
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify({ ...current, ...settings }, null, 2)}\n`, {
    mode: 0o600,
  });
  renameSync(temporary, file);
}

/**
 * What a kept demo needs to find its session again (DIR/demo.json, made at the first run): the
 * simulator's port (Callbar's platform address), its seed and client credentials.
 */
async function keptSimulator() {
  const file = join(stateDir, 'demo.json');
  if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8'));
  mkdirSync(stateDir, { recursive: true, mode: 0o700 });
  const kept = {
    port: options.simPort ?? (await freePort()),
    seed: DEMO_SEED,
    contacts: options.contacts,
    client_id: 'callbar-demo',
    client_secret: randomBytes(24).toString('hex'),
  };
  writeFileSync(file, `${JSON.stringify(kept, null, 2)}\n`, { mode: 0o600 });
  return kept;
}

/** The installed Electron binary, found without `require('electron')` (which would download it). */
function electronBinary() {
  try {
    const dir = dirname(require.resolve('electron/package.json'));
    const name = readFileSync(join(dir, 'path.txt'), 'utf8').trim();
    const binary = join(dir, 'dist', name);
    return name && existsSync(binary) ? binary : undefined;
  } catch {
    return undefined;
  }
}

function portIsFree(port) {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

function freePort() {
  return new Promise((done) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => done(port));
    });
  });
}
