// `npm run demo`: builds Callbar, starts the built-in platform simulator, registers Callbar's
// loopback receiver with it (the exact URLs and headers `callbar status --json` reports, as a
// person registers them with the platform), then runs Callbar against it: in Electron when the Electron binary is
// installed, otherwise in the web preview (printing its address and opening a browser if there is
// one). The demo uses its own profile folder (.callbar-demo/), never your real one.
//
//   npm run demo [-- --contacts N] [-- --no-open] [-- --state DIR]
//
// Each run is a new simulator, and without a desktop keyring a throwaway keyring: the session is
// gone at the next run. --state DIR (or CALLBAR_DEMO_STATE=DIR) keeps it: the simulator's port,
// seed, client credentials, tokens and activations, Callbar's profile and (without a desktop
// keyring) the private keyring all live in DIR, so the next run with the same DIR is still
// connected.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes, randomInt } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { seedDemoRegion } from './demo-region.mjs';

const require = createRequire(import.meta.url);
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';
const { values } = parseArgs({
  options: {
    contacts: { type: 'string', default: '500' },
    open: { type: 'boolean', default: true },
    state: { type: 'string', default: process.env.CALLBAR_DEMO_STATE },
  },
  allowNegative: true,
});
const stateDir = values.state ? resolve(values.state) : undefined;

// A throwaway keyring (scripts/with-keyring.sh without a desktop one) would lose the session:
// with --state, the demo runs again on a private keyring kept in DIR/keyring.
if (stateDir && process.env.CALLBAR_PRIVATE_DBUS) {
  const keyringDir = join(stateDir, 'keyring');
  if (process.env.CALLBAR_PRIVATE_DBUS !== keyringDir) {
    const env = { ...process.env, CALLBAR_KEYRING_DIR: keyringDir };
    delete env.CALLBAR_PRIVATE_DBUS;
    delete env.DBUS_SESSION_BUS_ADDRESS;
    const again = spawnSync(
      'bash',
      ['scripts/with-keyring.sh', process.execPath, 'scripts/demo.mjs', ...process.argv.slice(2)],
      { stdio: 'inherit', env },
    );
    process.exit(again.status ?? 1);
  }
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
    port: await freePort(),
    seed: randomInt(1, 1_000_000),
    contacts: values.contacts,
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

const DEFAULT_RECEIVER_PORT = 37153;

function freePort() {
  return new Promise((done) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => done(port));
    });
  });
}

async function receiverPort() {
  if (await portIsFree(DEFAULT_RECEIVER_PORT)) return DEFAULT_RECEIVER_PORT;
  return freePort();
}

const children = [];
function stopAll(code) {
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  process.exit(code);
}
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => stopAll(0));

console.log('Building Callbar…');
const build = spawnSync(npm, ['run', '--silent', 'build'], {
  stdio: ['ignore', 'ignore', 'inherit'],
});
if (build.status !== 0) process.exit(build.status ?? 1);

const port = await receiverPort();
const receiver = `http://127.0.0.1:${port}`;
if (port !== DEFAULT_RECEIVER_PORT) {
  // Said out loud: the demo's simulator registers this port, but a platform (or another
  // simulator) that registered the default one would call an address nobody answers.
  console.log(
    `Port ${DEFAULT_RECEIVER_PORT}, Callbar's default receiver port, is taken (another Callbar or demo?),
so this demo's receiver listens on ${port} instead. The demo's simulator registers
${receiver}/activate, /deactivate and /events/<secret> as its Activation, Deactivation and Webhook URLs;
a platform that registered the default port would not reach this Callbar. To use the same port
outside the demo, set CALLBAR_RECEIVER_PORT=${port} and register those URLs with the platform.`,
  );
}
const kept = stateDir ? await keptSimulator() : undefined;
if (kept && !(await portIsFree(kept.port))) {
  console.error(
    `Port ${kept.port}, where the demo kept in ${stateDir} runs its simulator, is taken (is that demo running?).`,
  );
  process.exit(1);
}
const sim = spawn(
  npx,
  [
    'tsx',
    'simulator/main.ts',
    '--port',
    String(kept?.port ?? 0),
    '--contacts',
    kept?.contacts ?? values.contacts,
    ...(kept
      ? [
          '--seed',
          String(kept.seed),
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
  console.error(`The simulator stopped (${code}).`);
  stopAll(1);
});
const info = JSON.parse(
  await new Promise((resolve) => createInterface({ input: sim.stdout }).once('line', resolve)),
);

const dataDir = stateDir
  ? join(stateDir, 'profile')
  : new URL('../.callbar-demo/', import.meta.url).pathname;
mkdirSync(dataDir, { recursive: true });
seedDemoRegion(dataDir);
const env = {
  ...process.env,
  CALLBAR_DATA_DIR: dataDir,
  CALLBAR_BASE_URL: info.base_url,
  CALLBAR_PORTAL_URL: info.portal_url,
  CALLBAR_CLIENT_ID: info.client_id,
  CALLBAR_CLIENT_SECRET: info.client_secret,
  CALLBAR_RECEIVER_PORT: String(port),
};
// The Webhook URL ends in the demo profile's secret (kept in the keychain): registered as
// `callbar status --json` reports it, the way a person registers it with the platform.
const status = spawnSync(process.execPath, ['bin/callbar.mjs', 'status', '--json'], {
  env,
  encoding: 'utf8',
});
let registration;
try {
  registration = JSON.parse(status.stdout).receiver;
} catch {
  console.error(`callbar status --json failed: ${status.stderr}`);
  stopAll(1);
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
  stopAll(1);
}
const user = info.users[0];
console.log(`
Platform simulator at ${info.base_url} (tenant ${info.tenant_id}, ${kept?.contacts ?? values.contacts} contacts).${
  stateDir
    ? `
Kept in ${stateDir}: the next \`npm run demo -- --state ${values.state}\` is still connected
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
`);

const electron = electronBinary();
const app = electron
  ? spawn(npx, ['electron-vite', 'preview'], { stdio: 'inherit', env })
  : spawn(npx, ['tsx', 'src-main/preview/main.ts', ...(values.open ? [] : ['--no-open'])], {
      stdio: 'inherit',
      env,
    });
if (!electron) console.log('No Electron binary here: starting the web preview.');
children.push(app);
app.on('exit', (code) => stopAll(code ?? 0));
