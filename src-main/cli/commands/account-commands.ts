/** `callbar activate`, `status`, `deactivate-local`: connecting this computer to the account. */
import { defineCommand, UsageError, type CommandGroup } from '../command';
import { describeStatus, exitCodeForState } from '../cli-io';

function timeoutSeconds(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const seconds = Number(value);
  if (!(seconds > 0)) throw new UsageError('--timeout must be a positive number of seconds.');
  return seconds;
}

function tenantParams(pairs: string[] | undefined): Record<string, string> {
  const params: Record<string, string> = {};
  for (const pair of pairs ?? []) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new UsageError(`--tenant-param takes NAME=VALUE, not "${pair}".`);
    params[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  return params;
}

export const accountCommands: CommandGroup = {
  title: 'Account',
  commands: [
    defineCommand({
      name: 'activate',
      usage: '[--no-browser] [--timeout SECONDS] [--tenant-param NAME=VALUE]…',
      summary: 'Connect Callbar to your phone account through the portal',
      help:
        'Opens the portal in your browser (or prints the link with --no-browser); sign in and\n' +
        'press Subscribe. Exits 0 once the tokens are safely in the system keychain.',
      options: {
        browser: { type: 'boolean', default: true },
        timeout: { type: 'string' },
        'tenant-param': { type: 'string', multiple: true },
      },
      async run(ctx, { values }) {
        const seconds = timeoutSeconds(values.timeout);
        const params = tenantParams(values['tenant-param']);
        const { account } = await ctx.profile();
        await account.start();
        const started = await account.startActivation({
          tenantParams: params,
          ...(seconds !== undefined ? { timeoutMs: seconds * 1000 } : {}),
          openUrl: async (url) => {
            if (ctx.json) ctx.io.out(JSON.stringify({ portal_link: url }));
            else {
              ctx.io.out(`Open this link in your browser to connect Callbar:\n\n  ${url}\n`);
              ctx.io.err('Waiting for the portal to confirm… (Ctrl+C to cancel)');
            }
            if (values.browser) {
              const { default: open } = await import('open');
              await open(url).catch(() => undefined);
            }
          },
        });
        const cancel = () => account.cancelActivation('Cancelled from the command line.');
        process.once('SIGINT', cancel);
        try {
          const status = await started.completion;
          ctx.io.out(ctx.json ? JSON.stringify(status) : describeStatus(status));
        } finally {
          process.removeListener('SIGINT', cancel);
        }
      },
    }),
    defineCommand({
      name: 'status',
      summary: 'Show whether Callbar is connected, and as whom',
      async run(ctx) {
        const current = await (await ctx.profile()).account.start();
        ctx.io.out(ctx.json ? JSON.stringify(current) : describeStatus(current));
        return exitCodeForState(current.state);
      },
    }),
    defineCommand({
      name: 'deactivate-local',
      summary: 'Forget the session on this computer',
      async run(ctx) {
        const current = await (await ctx.profile()).account.deactivateLocal();
        ctx.io.out(
          ctx.json
            ? JSON.stringify(current)
            : 'Callbar forgot the session on this computer. The integration stays active in the portal until you unsubscribe there.',
        );
      },
    }),
  ],
};
