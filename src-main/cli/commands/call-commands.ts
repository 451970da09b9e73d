/** `callbar dial`, `callbar hangup`: click-to-dial and hang-up through the platform. */
import { defineCommand, type CommandGroup } from '../command';
import { show } from '../list-output';

export const callCommands: CommandGroup = {
  title: 'Calls',
  commands: [
    defineCommand({
      name: 'dial',
      usage: 'DESTINATION',
      summary: 'Ring your phone, then the destination',
      help: 'DESTINATION is a phone number (spaces allowed) or an extension.',
      args: { name: 'DESTINATION', min: 1, max: Infinity },
      async run(ctx, { args }) {
        const accepted = await (await ctx.platform()).calls.clickToDial(args.join(' '));
        show(
          ctx,
          { dialing: true, ...accepted },
          () =>
            `Calling: your phone rings first; answer it and the platform dials the number.${accepted.call_leg_id ? `\nCall leg ${accepted.call_leg_id} (for callbar hangup).` : ''}`,
        );
      },
    }),
    defineCommand({
      name: 'hangup',
      usage: 'CALL_LEG_ID',
      summary: 'Hang up a call leg',
      args: { name: 'CALL_LEG_ID', min: 1 },
      async run(ctx, { args }) {
        const accepted = await (await ctx.platform()).calls.hangup(args[0]!);
        show(ctx, { hung_up: true, ...accepted }, () => 'Hung up.');
      },
    }),
  ],
};
