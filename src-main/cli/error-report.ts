/** A failed command, told once: a sentence per problem on stderr (or JSON on stdout), an exit code. */
import { ApiError } from '../core/api/api-errors';
import { explainDetail, explainPlatformError } from '../core/api/platform-messages';
import { CallbarError, describeError } from '../core/errors';
import { terminalField } from '../core/text/terminal-text';
import { exitCodeForError, ExitCode } from './cli-io';
import type { CommandContext } from './command';

/** What to do next, for the failures a user can fix by running another command. */
const nextStep: Partial<Record<number, string>> = {
  [ExitCode.notConnected]: "Run 'callbar activate' to connect Callbar to your phone account.",
  [ExitCode.unreachable]:
    'Check your network connection (and CALLBAR_BASE_URL / CALLBAR_PORTAL_URL if you set them), then try again.',
};

/**
 * The platform's refusal behind `error`: the error itself, or the one a core layer (the phonebook
 * editor) only put into words, so its fields are told one per line; not one that layer explained
 * further (its own sentence is told instead).
 */
function platformRefusal(error: unknown): ApiError | undefined {
  if (error instanceof ApiError) return error;
  if (error instanceof CallbarError && error.cause instanceof ApiError) {
    const plain = explainPlatformError(error.cause);
    if (plain instanceof Error && plain.message === error.message) return error.cause;
  }
  return undefined;
}

export function reportError(ctx: CommandContext, error: unknown, state?: string): number {
  const exitCode = exitCodeForError(error);
  const refusal = platformRefusal(error);
  const fieldErrors = refusal?.errors ?? [];
  // The platform's details in words a person understands, with the fields they concern, as the
  // window gets them (the raw ones stay in `errors`).
  const described = describeError(explainPlatformError(refusal ?? error));
  const hint = nextStep[exitCode];
  if (ctx.json) {
    const details = refusal ? { status: refusal.status, errors: fieldErrors } : {};
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
