/** A failed command, told once: a sentence per problem on stderr (or JSON on stdout), an exit code. */
import { ApiError } from '../core/api/api-errors';
import { explainDetail, explainPlatformError } from '../core/api/platform-messages';
import { describeError } from '../core/errors';
import { terminalField } from '../core/text/terminal-text';
import { exitCodeForError, ExitCode } from './cli-io';
import type { CommandContext } from './command';

/** What to do next, for the failures a user can fix by running another command. */
const nextStep: Partial<Record<number, string>> = {
  [ExitCode.notConnected]: "Run 'callbar activate' to connect Callbar to your phone account.",
  [ExitCode.unreachable]:
    'Check your network connection (and CALLBAR_BASE_URL / CALLBAR_PORTAL_URL if you set them), then try again.',
};

export function reportError(ctx: CommandContext, error: unknown, state?: string): number {
  const exitCode = exitCodeForError(error);
  const fieldErrors = error instanceof ApiError ? error.errors : [];
  // The platform's details in words a person understands, with the fields they concern, as the
  // window gets them (the raw ones stay in `errors`).
  const described = describeError(explainPlatformError(error));
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
      ? fieldErrors.map(({ attr, detail }) => {
          const { sentence, field } = explainDetail(detail, attr);
          return `${field ? `${terminalField(field)}: ` : ''}${terminalField(sentence)}`;
        })
      : [terminalField(described.message)];
  for (const line of lines) ctx.io.err(`callbar: ${line}`);
  if (described.details) ctx.io.err(`Details: ${terminalField(described.details)}`);
  if (hint && !described.message.includes('callbar activate')) ctx.io.err(hint);
  return exitCode;
}
