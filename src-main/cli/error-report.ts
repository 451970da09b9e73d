/** A failed command, told once: a sentence per problem on stderr (or JSON on stdout), an exit code. */
import { ApiError } from '../core/api/api-errors';
import { explainDetail, explainPlatformError } from '../core/api/platform-messages';
import { CallbarError, describeError } from '../core/errors';
import { terminalField } from '../core/text/terminal-text';
import { exitCodeForError, ExitCode } from './cli-io';
import type { CommandContext } from './command';

/** What to do next (a `cli` key), for the failures a user can fix by running another command. */
const nextStep: Partial<Record<number, string>> = {
  [ExitCode.notConnected]: 'errors.notConnectedHint',
  [ExitCode.unreachable]: 'errors.unreachableHint',
};

/**
 * The platform's refusal behind `error`: the error itself, or the one a core layer (the phonebook
 * editor) only put into words, so its fields are told one per line; not one that layer explained
 * further (its own sentence, or its own code, is told instead).
 */
function platformRefusal(error: unknown): ApiError | undefined {
  if (error instanceof ApiError) return error;
  if (error instanceof CallbarError && error.cause instanceof ApiError) {
    const plain = explainPlatformError(error.cause);
    if (
      plain instanceof CallbarError &&
      plain.message === error.message &&
      plain.code === error.code
    ) {
      return error.cause;
    }
  }
  return undefined;
}

export function reportError(ctx: CommandContext, error: unknown, state?: string): number {
  const exitCode = exitCodeForError(error);
  const refusal = platformRefusal(error);
  const fieldErrors = refusal?.errors ?? [];
  const explained = explainPlatformError(refusal ?? error);
  if (ctx.json) {
    // The platform's details in words a person understands, with the fields they concern, as the
    // window gets them (the raw ones stay in `errors`); always in English, for programs.
    const details = refusal ? { status: refusal.status, errors: fieldErrors } : {};
    ctx.io.out(
      JSON.stringify({
        ...(state ? { state } : {}),
        error: { ...describeError(explained), ...details },
      }),
    );
    return exitCode;
  }
  const { t } = ctx;
  const described = describeError(explained, t);
  const fieldLine = (field: string, sentence: string) =>
    t('errors.fieldLine', { field: terminalField(field), sentence: terminalField(sentence) });
  // The platform's errors one per line, each with the field it concerns; then Callbar's own
  // checks of what was typed, the same way (a number the one reader refused names its field);
  // otherwise the message.
  const ownFields = Object.entries(described.fields ?? {});
  const lines =
    fieldErrors.length > 0
      ? fieldErrors.map(({ attr, detail }) => {
          const { sentence, field } = explainDetail(detail, attr, t);
          return field ? fieldLine(field, sentence) : terminalField(sentence);
        })
      : ownFields.length > 0
        ? ownFields.map(([field, sentence]) => fieldLine(field, sentence))
        : [terminalField(described.message)];
  for (const line of lines) ctx.io.err(t('errors.line', { message: line }));
  if (described.details) {
    ctx.io.err(t('errors.details', { details: terminalField(described.details) }));
  }
  // A portal address that answers 404 is no network problem: its sentence says what to check.
  const hint =
    explained instanceof CallbarError && explained.code === 'portal_not_found'
      ? undefined
      : nextStep[exitCode];
  if (hint && !described.message.includes('callbar activate')) ctx.io.err(t(hint));
  return exitCode;
}
