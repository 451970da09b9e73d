import { inEnglish, sayKept } from './text/translators';
import type { Said, Translate } from './text/said';

/**
 * An error meant for a person: a stable `code` for programs, a `message` that says what happened
 * and what to do, and optionally the input `field` it concerns. Every expected failure in core is
 * one of these; anything else is a bug and is reported as an internal error.
 *
 * The message may be given as a {@link Said} (a catalog key and values): `message` is then its
 * English wording (logs, `--json`, the IPC answer), and `said` lets the CLI, the tray and the
 * notifications word it in the reader's language (`describeError(error, t)`).
 */
export class CallbarError extends Error {
  readonly code: string;
  readonly field: string | undefined;
  /** Every input field concerned, with its own sentence (a form shows each next to its input). */
  readonly fields: Record<string, string> | undefined;
  /**
   * What only someone looking into it needs (the request, the HTTP status): kept out of the
   * sentence, shown behind "Details" in the window and on a line of its own in the CLI.
   */
  readonly details: string | undefined;
  /** The message as a catalog key and values, when it was given so. */
  #said: Said | undefined;

  constructor(
    code: string,
    message: string | Said,
    options: {
      field?: string;
      fields?: Record<string, string>;
      details?: string;
      cause?: unknown;
    } = {},
  ) {
    super(typeof message === 'string' ? message : inEnglish(message), { cause: options.cause });
    this.name = 'CallbarError';
    this.#said = typeof message === 'string' ? undefined : message;
    this.code = code;
    this.field = options.field;
    this.fields = options.fields;
    this.details = options.details;
  }

  /** The message as a catalog key and values, when it was given so. */
  get said(): Said | undefined {
    return this.#said;
  }

  /** Its message, or its catalog key and values when it was given so (to be worded later). */
  get saying(): string | Said {
    return this.#said ?? this.message;
  }

  /** Says it otherwise (a subclass that knows more than its parent's sentence). */
  protected reword(message: string | Said): void {
    this.message = typeof message === 'string' ? message : inEnglish(message);
    this.#said = typeof message === 'string' ? undefined : message;
  }
}

/** What an error says, as a catalog key and values when it says it so (to put into another). */
export function sayingOf(error: unknown): string | Said {
  return error instanceof CallbarError ? error.saying : describeError(error).message;
}

/** An error's message (never its stack); for a thrown non-Error, its text. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * A failure as code + sentence (+ field, details); an unexpected error never shows its stack.
 * With `t`, the sentence is worded in its language when the error says it by key (or its message
 * is a sentence this process said by key).
 */
export function describeError(
  error: unknown,
  t?: Translate,
): {
  code: string;
  message: string;
  field?: string;
  fields?: Record<string, string>;
  details?: string;
} {
  if (error instanceof CallbarError) {
    return {
      code: error.code,
      message: !t ? error.message : sayKept(t, error.said ?? error.message),
      ...(error.field ? { field: error.field } : {}),
      ...(error.fields
        ? {
            fields: !t
              ? error.fields
              : Object.fromEntries(
                  Object.entries(error.fields).map(([name, text]) => [name, sayKept(t, text)]),
                ),
          }
        : {}),
      ...(error.details ? { details: error.details } : {}),
    };
  }
  return { code: 'internal', message: errorMessage(error) };
}
