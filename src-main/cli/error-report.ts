/** A failed command, told once: a sentence per problem on stderr (or JSON on stdout), an exit code. */
import { ApiError } from '../core/api/api-errors';
import { describeError } from '../core/errors';
import { exitCodeForError, ExitCode } from './cli-io';
import type { CommandContext } from './command';

/** What to do next, for the failures a user can fix by running another command. */
const nextStep: Partial<Record<number, string>> = {
  [ExitCode.notConnected]: "Run 'callbar activate' to connect Callbar to your phone account.",
};

export function reportError(ctx: CommandContext, error: unknown, state?: string): number {
  const exitCode = exitCodeForError(error);
  const described = describeError(error);
  const fieldErrors = error instanceof ApiError ? error.errors : [];
  const hint = nextStep[exitCode];
  if (ctx.json) {
    const details = error instanceof ApiError ? { status: error.status, errors: fieldErrors } : {};
    ctx.io.out(
      JSON.stringify({ ...(state ? { state } : {}), error: { ...described, ...details } }),
    );
    return exitCode;
  }
  // The platform's errors one per line, each with the field it concerns; otherwise the message.
  const lines =
    fieldErrors.length > 0
      ? fieldErrors.map(({ attr, detail }) => (attr ? `${attr}: ${detail}` : detail))
      : [described.field ? `${described.field}: ${described.message}` : described.message];
  for (const line of lines) ctx.io.err(`callbar: ${line}`);
  if (hint && !described.message.includes('callbar activate')) ctx.io.err(hint);
  return exitCode;
}
