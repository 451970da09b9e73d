/**
 * An error meant for a person: a stable `code` for programs, a `message` that says what happened
 * and what to do, and optionally the input `field` it concerns. Every expected failure in core is
 * one of these; anything else is a bug and is reported as an internal error.
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

  constructor(
    code: string,
    message: string,
    options: {
      field?: string;
      fields?: Record<string, string>;
      details?: string;
      cause?: unknown;
    } = {},
  ) {
    super(message, { cause: options.cause });
    this.name = 'CallbarError';
    this.code = code;
    this.field = options.field;
    this.fields = options.fields;
    this.details = options.details;
  }
}

/** An error's message (never its stack); for a thrown non-Error, its text. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A failure as code + sentence (+ field, details); an unexpected error never shows its stack. */
export function describeError(error: unknown): {
  code: string;
  message: string;
  field?: string;
  fields?: Record<string, string>;
  details?: string;
} {
  if (error instanceof CallbarError) {
    return {
      code: error.code,
      message: error.message,
      ...(error.field ? { field: error.field } : {}),
      ...(error.fields ? { fields: error.fields } : {}),
      ...(error.details ? { details: error.details } : {}),
    };
  }
  return { code: 'internal', message: errorMessage(error) };
}
