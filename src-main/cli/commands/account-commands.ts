import open from 'open';
import type { Profile } from '../../core/profile';
import { describeError } from '../../core/errors';
import {
  describeStatus,
  exitCodeForError,
  exitCodeForState,
  ExitCode,
  type CliIo,
} from '../cli-io';

export interface ActivateOptions {
  json: boolean;
  browser: boolean;
  timeoutSeconds?: number | undefined;
  tenantParams: Record<string, string>;
}

/** `callbar activate`: prints the portal link, waits for the receiver to store the tokens. */
export async function activate(
  profile: Profile,
  io: CliIo,
  options: ActivateOptions,
): Promise<number> {
  const { account } = profile;
  await account.start();
  let started;
  try {
    started = await account.startActivation({
      tenantParams: options.tenantParams,
      ...(options.timeoutSeconds !== undefined ? { timeoutMs: options.timeoutSeconds * 1000 } : {}),
      // The browser is started with a one-time loopback address, never the portal link: a
      // command line is readable by every local user. --no-browser prints the link itself.
      openUrl: async (url) => {
        if (!options.browser) return;
        if (options.json) io.out(JSON.stringify({ browser_url: url }));
        else {
          io.out(
            `Opening your browser to connect Callbar. If it does not open, open:\n\n  ${url}\n`,
          );
          io.err('Waiting for the portal to confirm… (Ctrl+C to cancel)');
        }
        await open(url).catch(() => undefined);
      },
    });
  } catch (error) {
    return fail(io, options.json, account.status().state, error);
  }
  if (!options.browser) {
    const link = started.portalLink;
    if (options.json) io.out(JSON.stringify({ portal_link: link }));
    else {
      io.out(`Open this link in your browser to connect Callbar:\n\n  ${link}\n`);
      io.err('Waiting for the portal to confirm… (Ctrl+C to cancel)');
    }
  }
  const cancel = () => account.cancelActivation('Cancelled from the command line.');
  process.once('SIGINT', cancel);
  try {
    const status = await started.completion;
    io.out(options.json ? JSON.stringify(status) : describeStatus(status));
    return ExitCode.ok;
  } catch (error) {
    return fail(io, options.json, account.status().state, error);
  } finally {
    process.removeListener('SIGINT', cancel);
  }
}

/** `callbar status`: the state and identity, never a token. */
export async function status(profile: Profile, io: CliIo, json: boolean): Promise<number> {
  const current = await profile.account.start();
  io.out(json ? JSON.stringify(current) : describeStatus(current));
  return exitCodeForState(current.state);
}

/** `callbar deactivate-local`: forget the session on this computer. */
export async function deactivateLocal(profile: Profile, io: CliIo, json: boolean): Promise<number> {
  try {
    const current = await profile.account.deactivateLocal();
    io.out(
      json
        ? JSON.stringify(current)
        : 'Callbar forgot the session on this computer. The integration stays active in the portal until you unsubscribe there.',
    );
    return ExitCode.ok;
  } catch (error) {
    return fail(io, json, profile.account.status().state, error);
  }
}

function fail(io: CliIo, json: boolean, state: string, error: unknown): number {
  const described = describeError(error);
  if (json) io.out(JSON.stringify({ state, error: described }));
  else io.err(`callbar: ${described.message}`);
  return exitCodeForError(error);
}
