/**
 * The account's loopback receiver: started once on the configured port, after the webhook secret
 * its Webhook URL holds is read from (or created in) the keychain (see webhook-auth.ts); why it
 * cannot listen, or why the secret cannot be read, for the status; and the addresses and headers
 * to register with the platform.
 */
import type { ReceiverRegistration } from '../../../src-shared/contract';
import { errorMessage } from '../errors';
import type { Logger } from '../log/logger';
import { said } from '../text/said';
import { inEnglish, spokenSaid } from '../text/translators';
import type { Vault } from '../vault/vault';
import type { BodySignature } from './body-signature';
import { startReceiver, type ReceiverHandlers, type RunningReceiver } from './receiver';
import { receiverRegistration, type WebhookAuth } from './webhook-auth';

export interface LoopbackListeningOptions {
  port: number;
  /** Headers the platform is configured to send with its calls to the receiver. */
  headers: Record<string, string> | undefined;
  /** The HMAC signature the platform puts on each call's body (see body-signature.ts). */
  signature: BodySignature | undefined;
  /** Call events without the webhook secret (or headers) are accepted too. */
  acceptUnauthenticated: boolean;
  vault: Vault;
  log: Logger;
  /** What the receiver's calls do (the account service's handlers). */
  handlers: ReceiverHandlers;
  /** The status changed. */
  publish(): void;
}

export class LoopbackListening {
  readonly #options: LoopbackListeningOptions;
  #receiver: Promise<RunningReceiver> | undefined;
  /** Why the receiver is not listening (activation and call events cannot arrive). */
  #problem: string | undefined;
  /** The profile's webhook secret, once read from (or created in) the keychain. */
  #webhookSecret: string | undefined;
  /** Why the webhook secret could not be read (call events are refused meanwhile). */
  #webhookProblem: string | undefined;

  constructor(options: LoopbackListeningOptions) {
    this.#options = options;
  }

  /** Why the receiver is not listening, if it is not. */
  get problem(): string | undefined {
    return this.#problem;
  }

  /** Why the webhook secret could not be read, if it could not. */
  get webhookProblem(): string | undefined {
    return this.#webhookProblem;
  }

  /** Whether the platform's call events reach this process now. */
  hearsCallEvents(): boolean {
    return this.#receiver !== undefined && this.#problem === undefined;
  }

  /** Starts the receiver (once), after reading the webhook secret. */
  listen(): Promise<RunningReceiver> {
    this.#receiver ??= this.loadWebhookSecret()
      .then(() =>
        startReceiver({
          port: this.#options.port,
          handlers: this.#options.handlers,
          auth: () => this.#auth(),
          log: this.#options.log,
        }),
      )
      .then(
        (receiver) => {
          this.#problem = undefined;
          this.#options.publish();
          return receiver;
        },
        (error: unknown) => {
          this.#receiver = undefined;
          this.#problem = errorMessage(error);
          this.#options.publish();
          throw error;
        },
      );
    return this.#receiver;
  }

  /**
   * The exact URLs and headers to register with the platform (they hold the webhook secret: for
   * the person who asked, never for the log). The receiver's own address once it listens.
   */
  async registration(): Promise<ReceiverRegistration> {
    await this.loadWebhookSecret();
    const listening = await this.#receiver?.catch(() => undefined);
    const origin = listening?.origin ?? `http://127.0.0.1:${this.#options.port}`;
    return receiverRegistration(origin, this.#auth(), this.#webhookProblem);
  }

  /** Reads the secret again when it could not be read before (the keychain may work now). */
  async retryWebhookSecret(): Promise<void> {
    if (this.#webhookProblem) await this.loadWebhookSecret();
  }

  /**
   * Reads (or creates) the webhook secret, unless the platform's headers authenticate events.
   * A keychain that cannot give it is a problem the status says, not a failure: the receiver
   * still serves activation, and refuses call events.
   */
  async loadWebhookSecret(): Promise<void> {
    if (this.#webhookSecret !== undefined) return;
    if (Object.keys(this.#options.headers ?? {}).length > 0) return;
    if (this.#options.signature) return;
    try {
      this.#webhookSecret = await this.#options.vault.webhookSecret();
      this.#webhookProblem = undefined;
    } catch (error) {
      this.#webhookProblem = inEnglish(
        said('errors:account.noWebhookSecret', { reason: spokenSaid(errorMessage(error)) }),
      );
      this.#options.log.warn('the webhook secret is unavailable; call events are refused', {
        reason: errorMessage(error),
      });
    }
    this.#options.publish();
  }

  /** Stops the receiver, if it listens. */
  async close(): Promise<void> {
    const receiver = await this.#receiver?.catch(() => undefined);
    await receiver?.close();
  }

  #auth(): WebhookAuth {
    return {
      headers: this.#options.headers ?? {},
      signature: this.#options.signature,
      secret: this.#webhookSecret,
      acceptUnauthenticated: this.#options.acceptUnauthenticated,
    };
  }
}
