/**
 * `npm run sim -- --port P [--profile rich|minimal|variant] [--contacts N] [--seed S] [--activation-url U --deactivation-url U
 * --webhook-url U --slug callbar --extra-header 'Name: value' --encoding json|form] [...]`
 *
 * Prints exactly one JSON line on stdout when ready ({base_url, portal_url, client_id,
 * client_secret, tenant_id, profile, users}); logs go to stderr; runs until SIGINT/SIGTERM.
 */
import { parseArgs } from 'node:util';
import { startSimulator, type SimulatorOptions } from './index';
import {
  CALL_CONTROL_RESPONSES,
  SIM_PROFILES,
  type CallControlResponse,
  type RateLimit,
  type SimProfile,
} from './options';

const USAGE = `usage: npm run sim -- [--port P] [--profile rich|minimal|variant] [--contacts N] [--seed S]
  [--state FILE (keeps tokens and activations across runs)]
  [--slug callbar] [--activation-url U --deactivation-url U] [--webhook-url U]
  (without them: Callbar's default receiver, http://127.0.0.1:37153/activate, /deactivate, /events;
  Callbar accepts call events only at the Webhook URL \`callbar status --json\` reports, so pass
  that as --webhook-url, or PUT it to /__sim/integrations/callbar)
  [--extra-header 'Name: value']... [--encoding json|form]
  [--client-id ID] [--client-secret SECRET] [--max-page-size N] [--no-auto-answer]
  [--call-control-response ${CALL_CONTROL_RESPONSES.join('|')}]
  [--rate-limit-phonebook LIMIT/SECONDS] [--rate-limit-call-control LIMIT/SECONDS]`;

function fail(message: string): never {
  process.stderr.write(`${message}\n${USAGE}\n`);
  process.exit(2);
}

function integer(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) fail(`--${name} must be a non-negative integer, not "${value}"`);
  return Number(value);
}

function rate(name: string, value: string | undefined): RateLimit | undefined {
  if (value === undefined) return undefined;
  const match = /^(\d+)\/(\d+(?:\.\d+)?)$/.exec(value);
  if (!match) fail(`--${name} must look like 600/60 (requests per seconds)`);
  return { limit: Number(match[1]), window_seconds: Number(match[2]) };
}

/** Where Callbar's loopback receiver listens unless configured otherwise. */
const DEFAULT_RECEIVER = 'http://127.0.0.1:37153';

function options(argv: string[]): SimulatorOptions {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      strict: true,
      options: {
        port: { type: 'string' },
        profile: { type: 'string' },
        contacts: { type: 'string' },
        seed: { type: 'string' },
        state: { type: 'string' },
        slug: { type: 'string', default: 'callbar' },
        'activation-url': { type: 'string' },
        'deactivation-url': { type: 'string' },
        'webhook-url': { type: 'string' },
        'extra-header': { type: 'string', multiple: true },
        encoding: { type: 'string' },
        'client-id': { type: 'string' },
        'client-secret': { type: 'string' },
        'max-page-size': { type: 'string' },
        'no-auto-answer': { type: 'boolean' },
        'call-control-response': { type: 'string' },
        'rate-limit-phonebook': { type: 'string' },
        'rate-limit-call-control': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    fail(error instanceof Error ? error.message : String(error));
  }
  const values = parsed.values;
  if (values.help) {
    // Help is what was asked for: on stdout (`| less`); errors stay on stderr.
    process.stdout.write(`${USAGE}\n`);
    process.exit(0);
  }
  const result: SimulatorOptions = {
    port: integer('port', values.port) ?? 0,
    log: (line) => process.stderr.write(`[sim] ${line}\n`),
  };
  if (values.profile !== undefined) {
    if (!SIM_PROFILES.includes(values.profile as SimProfile))
      fail(`--profile must be ${SIM_PROFILES.join(' or ')}, not "${values.profile}"`);
    result.profile = values.profile as SimProfile;
  }
  const contacts = integer('contacts', values.contacts);
  if (contacts !== undefined) result.contacts = contacts;
  const seed = integer('seed', values.seed);
  if (seed !== undefined) result.seed = seed;
  if (values.state) result.stateFile = values.state;
  if (values['client-id']) result.clientId = values['client-id'];
  if (values['client-secret']) result.clientSecret = values['client-secret'];
  const maxPageSize = integer('max-page-size', values['max-page-size']);
  if (maxPageSize !== undefined) result.maxPageSize = maxPageSize;
  if (values['no-auto-answer']) result.autoAnswer = false;
  const variant = values['call-control-response'];
  if (variant !== undefined) {
    if (!CALL_CONTROL_RESPONSES.includes(variant as CallControlResponse))
      fail(`unknown --call-control-response ${variant}`);
    result.callControlResponse = variant as CallControlResponse;
  }
  const phonebookRate = rate('rate-limit-phonebook', values['rate-limit-phonebook']);
  const callControlRate = rate('rate-limit-call-control', values['rate-limit-call-control']);
  if (phonebookRate || callControlRate) {
    result.rateLimits = {
      ...(phonebookRate ? { phonebook: phonebookRate } : {}),
      ...(callControlRate ? { 'call-control': callControlRate } : {}),
    };
  }

  const activation = values['activation-url'];
  const deactivation = values['deactivation-url'];
  const integrationFlags = [
    activation,
    deactivation,
    values['webhook-url'],
    values.encoding,
    values['extra-header'],
  ];
  if (activation || deactivation) {
    if (!activation || !deactivation) fail('--activation-url and --deactivation-url go together');
    const headers: Record<string, string> = {};
    for (const header of values['extra-header'] ?? []) {
      const colon = header.indexOf(':');
      if (colon <= 0) fail(`--extra-header must look like 'Name: value', not "${header}"`);
      headers[header.slice(0, colon).trim()] = header.slice(colon + 1).trim();
    }
    const encoding = values.encoding;
    if (encoding !== undefined && encoding !== 'json' && encoding !== 'form')
      fail(`--encoding must be json or form`);
    result.integrations = {
      [values.slug]: {
        activation_url: activation,
        deactivation_url: deactivation,
        ...(values['webhook-url'] ? { webhook_url: values['webhook-url'] } : {}),
        extra_headers: headers,
        ...(encoding ? { encoding } : {}),
      },
    };
  } else if (integrationFlags.some((flag) => flag !== undefined)) {
    fail(
      '--webhook-url, --extra-header and --encoding need --activation-url and --deactivation-url',
    );
  } else {
    // Without flags, the integration points at Callbar's default loopback receiver, so that
    // `callbar activate` works against `npm run sim` with no further set-up.
    result.integrations = {
      [values.slug]: {
        activation_url: `${DEFAULT_RECEIVER}/activate`,
        deactivation_url: `${DEFAULT_RECEIVER}/deactivate`,
        webhook_url: `${DEFAULT_RECEIVER}/events`,
      },
    };
  }
  return result;
}

async function main(): Promise<void> {
  const sim = await startSimulator(options(process.argv.slice(2)));
  const info = {
    base_url: sim.base_url,
    portal_url: sim.portal_url,
    client_id: sim.client_id,
    client_secret: sim.client_secret,
    tenant_id: sim.tenant_id,
    profile: sim.profile,
    users: sim.users,
  };
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    process.stderr.write(`[sim] ${signal}: shutting down\n`);
    sim.close().then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`[sim] shutdown failed: ${String(error)}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
  // Printed once the handlers are in place: whoever reads the line may stop it at once (a
  // SIGTERM that came before them ended the process with the default action, status 143).
  process.stdout.write(`${JSON.stringify(info)}\n`);
}

main().catch((error: unknown) => {
  const { code, port } = error as { code?: string; port?: number };
  if (code === 'EADDRINUSE') {
    process.stderr.write(
      `[sim] Port ${port} on 127.0.0.1 is already in use (another simulator?). Start it on another port with \`npm run sim -- --port P\` (--port 0 picks a free one), then point Callbar at it: CALLBAR_BASE_URL=http://127.0.0.1:P CALLBAR_PORTAL_URL=http://127.0.0.1:P/portal.\n`,
    );
    process.exit(1);
  }
  process.stderr.write(`[sim] ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
