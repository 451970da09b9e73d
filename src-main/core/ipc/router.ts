import {
  channels,
  isChannelName,
  type ChannelName,
  type ErrorInfo,
  type ParsedRequestOf,
  type ResponseOf,
  type Result,
} from '../../../src-shared/contract';
import { CallbarError, describeError } from '../errors';
import type { Translate } from '../text/said';
import { sayAgainWhenSaid } from '../text/translators';
import { describeIssues } from '../validation-issues';
import type { Logger } from '../log/logger';
import { said } from '../text/said';

/** One handler per channel, receiving the parsed request. */
export type Handlers = {
  [C in ChannelName]: (request: ParsedRequestOf<C>) => Promise<ResponseOf<C>> | ResponseOf<C>;
};

/**
 * The transport-neutral router: validates the channel and the request with the contract, runs the
 * handler, validates its answer, and always resolves with `{ok:true,value}` or
 * `{ok:false,error:{code,message}}`. No stack trace ever crosses the boundary. An error core
 * says by key, and the sentences core said by key in an answer (sayAgainWhenSaid), are worded in
 * the window's language (`words`, when given; else English).
 */
export class Router {
  readonly #handlers: Handlers;
  readonly #log: Logger;
  readonly #words: (() => Translate) | undefined;

  constructor(handlers: Handlers, log: Logger, words?: () => Translate) {
    this.#handlers = handlers;
    this.#log = log;
    this.#words = words;
  }

  async invoke(channel: unknown, payload: unknown): Promise<Result<unknown>> {
    if (!isChannelName(channel)) {
      return failure({
        code: 'unknown_channel',
        message: `There is no channel ${String(channel)}.`,
      });
    }
    const spec = channels[channel];
    const request = spec.request.safeParse(payload ?? {});
    if (!request.success) {
      const { message, path: field } = describeIssues(request.error);
      return failure({
        code: 'invalid_request',
        message: `Invalid request for ${channel}: ${message}`,
        ...(field ? { field } : {}),
      });
    }
    try {
      const handler = this.#handlers[channel] as (request: unknown) => unknown;
      const value = await handler(request.data);
      const response = spec.response.safeParse(value);
      if (!response.success) {
        this.#log.error('handler answered outside the contract', {
          channel,
          issues: describeIssues(response.error).message,
        });
        return failure(internalError(this.#words?.()));
      }
      const words = this.#words;
      // Core's sentences in the answer (a number's description, a link's reason…) in the
      // window's language too, not only its errors.
      return { ok: true, value: words ? sayAgainWhenSaid(words, response.data) : response.data };
    } catch (error) {
      if (error instanceof CallbarError) return failure(describeError(error, this.#words?.()));
      this.#log.error('handler failed', { channel, error });
      return failure(internalError(this.#words?.()));
    }
  }
}

/** A bug's answer: a sentence of its own (the stack stays in the log), in the window's language. */
const internalError = (words: Translate | undefined): ErrorInfo =>
  describeError(new CallbarError('internal', said('errors:ipc.internal')), words);

function failure(error: ErrorInfo): Result<never> {
  return { ok: false, error };
}
