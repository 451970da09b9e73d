/** `callbar activate`, `status`, `deactivate-local`: connecting this computer to the account. */
import type { AccountStatus } from '../../../src-shared/contract';
import { ApiError } from '../../core/api/api-errors';
import { CallbarError, describeError } from '../../core/errors';
import { linkDoorAnswers } from '../../core/desktop/link-door-knock';
import type { Profile } from '../../core/profile';
import { said, sayWith, type Said } from '../../core/text/said';
import { sayAgain } from '../../core/text/translators';
import { defineCommand, UsageError, type CommandContext, type CommandGroup } from '../command';
import { describeStatus, exitCodeForError, exitCodeForState, ExitCode } from '../cli-io';
import { terminalField } from '../../core/text/terminal-text';

/** How long `activate` stays up for the browser's landing page after the platform's call. */
const LANDING_GRACE_MS = 5000;

function timeoutSeconds(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const seconds = Number(value);
  if (!(seconds > 0)) throw new UsageError(said('cli:usage.timeoutSeconds'));
  return seconds;
}

function tenantParams(pairs: string[] | undefined): Record<string, string> {
  const params: Record<string, string> = {};
  for (const pair of pairs ?? []) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new UsageError(said('cli:usage.tenantParam', { pair }));
    params[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  return params;
}

/** The session as the keychain has it; a keychain Callbar cannot use is exit 4, at once. */
async function storedStatus(profile: Profile): Promise<AccountStatus> {
  const status = await profile.account.start();
  if (status.state === 'vault-unavailable') {
    throw new CallbarError(
      'vault_unavailable',
      status.message ?? said('cli:status.keychainUnavailable'),
    );
  }
  return status;
}

const isConnected = (status: AccountStatus) =>
  status.state === 'connected' || status.state === 'offline';

/** Both addresses a connection needs answer (exit 5 before any portal link otherwise). */
async function checkPlatform(profile: Profile): Promise<void> {
  const { reachPlatform, reachPortal } = await import('../../core/api/platform-reachability');
  const { base_url, portal_url } = profile.settings;
  await Promise.all([reachPlatform(base_url, base_url), reachPortal(portal_url)]);
}

/** `status --check`: the platform's answer, not only what this computer remembers. */
async function checkWithPlatform(ctx: CommandContext, status: AccountStatus): Promise<number> {
  const profile = await ctx.profile();
  const report: { reachable: boolean; token_accepted?: boolean; error?: object } = {
    reachable: true,
  };
  const { t } = ctx;
  const lines = [describeStatus(status, t)];
  let exitCode: number = exitCodeForState(status.state);
  try {
    await checkPlatform(profile);
    lines.push(t('status.platformAnswers'));
    if (isConnected(status)) {
      const api = await ctx.platform();
      await api.phonebooks.listPhonebooks({ page_size: 1 });
      report.token_accepted = true;
      lines.push(t('status.tokenAccepted'));
      exitCode = ExitCode.ok;
    }
  } catch (error) {
    // A refusal of the request itself (a 403 that is not an authentication failure) still means
    // the token was accepted; an authentication failure (401, or a DRF platform's 403 saying
    // not_authenticated, authentication_failed or token_not_valid) means it was not, even after
    // the refresh and retry the client made.
    if (error instanceof ApiError && error.status === 403 && !error.authenticationFailed) {
      report.token_accepted = true;
      lines.push(t('status.tokenAcceptedRefused', { message: describeError(error, t).message }));
      exitCode = ExitCode.ok;
    } else {
      exitCode = exitCodeForError(error);
      if (exitCode === ExitCode.unreachable) report.reachable = false;
      else report.token_accepted = false;
      const described = describeError(error);
      report.error = described;
      lines.push(describeError(error, t).message);
      if (exitCode === ExitCode.notConnected) lines.push(t('status.connectAgain'));
    }
  }
  // Relay mode: whether call events can come, i.e. the device's stream opens at the relay.
  const relay = isConnected(status) ? await profile.account.probeRelay() : undefined;
  if (relay) {
    // No call event can come: as much a failed check as a platform that does not answer.
    if (relay.problem !== undefined && exitCode === ExitCode.ok) exitCode = ExitCode.unreachable;
    lines.push(
      relay.problem === undefined
        ? t('status.eventsLive')
        : t('status.relayUnreachable', { relay: terminalField(relay.host), reason: relay.problem }),
    );
  }
  const after = profile.account.status();
  // Ignored policy files or values, as plain `status` says them.
  const problems = profile.policies.problems;
  ctx.io.out(
    ctx.json
      ? JSON.stringify({
          ...after,
          platform: report,
          ...(relay
            ? {
                relay_stream: {
                  reachable: relay.problem === undefined,
                  ...(relay.problem === undefined ? {} : { error: relay.problem }),
                },
              }
            : {}),
          ...(problems.length > 0 ? { policy_problems: problems } : {}),
        })
      : [
          ...lines,
          ...problems.map((problem) =>
            t('status.policyProblem', { problem: sayAgain(t, problem) }),
          ),
        ].join('\n'),
  );
  return exitCode;
}

export const accountCommands: CommandGroup = {
  title: 'account',
  commands: [
    defineCommand({
      name: 'activate',
      usage: '[--no-browser] [--force] [--timeout SECONDS] [--tenant-param NAME=VALUE]…',
      options: {
        browser: { type: 'boolean', default: true },
        force: { type: 'boolean', default: false },
        timeout: { type: 'string' },
        'tenant-param': { type: 'string', multiple: true },
      },
      async run(ctx, { values }) {
        const seconds = timeoutSeconds(values.timeout);
        const params = tenantParams(values['tenant-param']);
        const profile = await ctx.profile();
        const { account } = profile;
        const current = await storedStatus(profile);
        if (isConnected(current) && !values.force) {
          ctx.io.out(ctx.json ? JSON.stringify(current) : describeStatus(current, ctx.t));
          ctx.io.err(ctx.t('activate.alreadyConnected'));
          return ExitCode.ok;
        }
        // A running Callbar of this profile holds the receiver the portal answers: it connects.
        if (await linkDoorAnswers(profile.dataDir)) {
          throw new CallbarError('app_running', said('cli:activate.appRunning'));
        }
        await checkPlatform(profile);
        const started = await account.startActivation({
          tenantParams: params,
          ...(seconds !== undefined ? { timeoutMs: seconds * 1000 } : {}),
          // The browser is started with a one-time loopback address, never the portal link: a
          // command line is readable by every local user. --no-browser prints the link itself.
          openUrl: async (url) => {
            if (!values.browser) return;
            if (ctx.json) ctx.io.out(JSON.stringify({ browser_url: url }));
            else {
              ctx.io.out(ctx.t('activate.openingBrowser', { url }));
              ctx.io.err(ctx.t('activate.waiting'));
            }
            const { default: open } = await import('open');
            await open(url).catch(() => undefined);
          },
        });
        if (!values.browser) {
          const link = started.portalLink;
          if (ctx.json) ctx.io.out(JSON.stringify({ portal_link: link }));
          else {
            ctx.io.out(ctx.t('activate.openLink', { link }));
            ctx.io.err(ctx.t('activate.waiting'));
          }
        }
        const stopCancelling = ctx.onSignal(() =>
          account.cancelActivation(said('errors:attempt.cancelledFromCli')),
        );
        // A refused activation call is said as it happens (the attempt keeps waiting).
        let told: string | undefined;
        const stopTelling = account.onStatus((status) => {
          if (status.state !== 'activating' || !status.message || status.message === told) return;
          told = status.message;
          ctx.io.err(sayAgain(ctx.t, status.message));
        });
        let answered = true;
        try {
          const status = await started.completion;
          ctx.io.out(ctx.json ? JSON.stringify(status) : describeStatus(status, ctx.t));
        } catch (error) {
          // Timed out or cancelled here: no browser is coming to the landing page.
          const code = error instanceof CallbarError ? error.code : '';
          answered = !['activation_timeout', 'activation_cancelled', 'activation_refused'].includes(
            code,
          );
          throw error;
        } finally {
          stopCancelling();
          stopTelling();
          // The platform's call is answered; the browser is being redirected to the receiver's
          // landing page. Stay until it was served, or the browser finds nobody there.
          if (answered) {
            await Promise.race([
              started.landed,
              new Promise((resolve) => setTimeout(resolve, LANDING_GRACE_MS).unref()),
            ]);
          }
        }
      },
    }),
    defineCommand({
      name: 'status',
      usage: '[--check] [--acknowledge-switch]',
      options: {
        check: { type: 'boolean', default: false },
        'acknowledge-switch': { type: 'boolean', default: false },
      },
      async run(ctx, { values }) {
        const { account, policies, dataDir, log } = await ctx.profile();
        await account.start();
        // Read (or created) first: a webhook secret the keychain cannot give is in the status.
        const receiver = await account.receiverRegistration();
        let current = account.status();
        if (values['acknowledge-switch']) current = await account.acknowledgeSwitch();
        if (values.check && current.state !== 'vault-unavailable') {
          return checkWithPlatform(ctx, current);
        }
        const unchecked = isConnected(current) && !ctx.json;
        // The directory's last sync, when it did not complete (sync-problem.ts).
        const { syncProblemFile, lastSyncProblem } =
          await import('../../core/directory/sync-problem');
        const syncProblem = await lastSyncProblem(syncProblemFile(dataDir, log), account.owner());
        ctx.io.out(
          ctx.json
            ? JSON.stringify({
                ...current,
                receiver,
                // Only when a policy was ignored: nothing changes for everyone else.
                ...(policies.problems.length > 0 ? { policy_problems: policies.problems } : {}),
                ...(syncProblem ? { sync_problem: syncProblem.message } : {}),
              })
            : `${describeStatus(current, ctx.t)}${unchecked ? `\n${ctx.t('status.unchecked')}` : ''}`,
        );
        if (syncProblem && !ctx.json) {
          ctx.io.out(ctx.t('status.syncProblem', { problem: wordProblem(ctx, syncProblem) }));
        }
        // Ignored policy files or values: the administrator's mistake, said where it is.
        if (!ctx.json) {
          for (const problem of policies.problems) {
            ctx.io.out(ctx.t('status.policyProblem', { problem: sayAgain(ctx.t, problem) }));
          }
        }
        if (current.account_switch && !ctx.json) {
          ctx.io.err(ctx.t('status.acknowledgeSwitch'));
        }
        return exitCodeForState(current.state);
      },
    }),
    defineCommand({
      name: 'deactivate-local',
      async run(ctx) {
        const profile = await ctx.profile();
        const before = await storedStatus(profile);
        if (before.state === 'not-connected') {
          ctx.io.out(ctx.json ? JSON.stringify(before) : ctx.t('deactivate.nothing'));
          return;
        }
        const current = await profile.account.deactivateLocal();
        ctx.io.out(ctx.json ? JSON.stringify(current) : ctx.t('deactivate.forgot'));
      },
    }),
  ],
};

/** A stored sentence in the reader's language (its English when the file's words do not fit). */
function wordProblem(ctx: CommandContext, problem: { message: string; said?: Said }): string {
  try {
    return problem.said ? sayWith(ctx.t, problem.said) : problem.message;
  } catch {
    return problem.message;
  }
}
