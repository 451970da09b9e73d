/** `callbar policy`: what the organisation set on this computer, and what Callbar runs with. */
import { defineCommand, type CommandGroup } from '../command';
import { formatTable } from '../table';

export const policyCommands: CommandGroup = {
  title: 'Policies',
  commands: [
    defineCommand({
      name: 'policy',
      summary: 'Show every setting and policy with its value and where it comes from',
      help:
        'Each value Callbar runs with, and its source: a locked or recommended policy (the file\n' +
        'or registry key), the environment, the user’s settings file, or the default.\n' +
        'Policy files, keys or values Callbar ignored are listed after the table (on stderr).\n' +
        'With --json: {"values": {NAME: {"value", "source", "origin"}}, "problems": [...]}.',
      async run(ctx) {
        const profile = await ctx.profile();
        const { effectiveValues, describeSource } =
          await import('../../core/config/policy/policy-report');
        const values = effectiveValues({
          dataDir: profile.dataDir,
          env: profile.env,
          policies: profile.policies,
        });
        const { problems } = profile.policies;
        if (ctx.json) {
          const byName = Object.fromEntries(
            values.map(({ name, value, source }) => [
              name,
              {
                value: value ?? null,
                source: source.kind,
                origin: 'origin' in source ? source.origin : null,
              },
            ]),
          );
          ctx.io.out(JSON.stringify({ values: byName, problems }));
          return;
        }
        ctx.io.out(
          formatTable(
            ['SETTING', 'VALUE', 'SOURCE'],
            values.map(({ name, value, source }) => [
              name,
              value === undefined ? '(not set)' : JSON.stringify(value),
              describeSource(source),
            ]),
          ),
        );
        for (const problem of problems) ctx.io.err(`Policy problem: ${problem}`);
      },
    }),
  ],
};
