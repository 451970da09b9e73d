/** `callbar policy`: what the organisation set on this computer, and what Callbar runs with. */
import { defineCommand, type CommandGroup } from '../command';
import { sayAgain } from '../../core/text/translators';
import { formatTable } from '../table';

export const policyCommands: CommandGroup = {
  title: 'policies',
  commands: [
    defineCommand({
      name: 'policy',
      helpValues: () => ({
        example: '{"values": {NAME: {"value", "source", "origin"}}, "problems": [...]}',
      }),
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
            ctx.t,
            ['SETTING', 'VALUE', 'SOURCE'],
            values.map(({ name, value, source }) => [
              name,
              value === undefined ? ctx.t('policy.notSet') : JSON.stringify(value),
              describeSource(ctx.t, source),
            ]),
          ),
        );
        for (const problem of problems) {
          ctx.io.err(ctx.t('status.policyProblem', { problem: sayAgain(ctx.t, problem) }));
        }
      },
    }),
  ],
};
