import { said } from '../text/said';
import { CallbarError } from '../errors';
import type { PlatformClient } from './platform-client';
import { CallControlAnswer } from './schemas';

const CALL_CONTROL = 'v3/call_control/';

export interface CallIdentity {
  tenant_id: string;
  user_extension: string;
}

/** What the platform said when it accepted a command (its body is not in the contract). */
export interface CommandAccepted {
  call_id?: string;
  call_leg_id?: string;
}

const DIALABLE = /^\+?[0-9*#]{2,32}$/;

/**
 * A destination as the platform receives it: visual separators removed, digits with an optional
 * leading "+", or an extension; anything else is refused before sending.
 */
export function normalizeDestination(input: string): string {
  const compact = input.trim().replace(/[\s().\-/]/g, '');
  if (!DIALABLE.test(compact)) {
    throw new CallbarError(
      'invalid_destination',
      said('errors:calls.notDialable', { input: input.trim() }),
      { field: 'destination' },
    );
  }
  return compact;
}

/**
 * Click-to-dial and hangup (contract 4.6). The user comes from the connected account, never from
 * the caller. These POSTs are never retried automatically. Their answers are not shown in the
 * contract: a success status is a success whatever its body (none, JSON, or text), and ids are
 * read from a JSON body when it has them.
 */
export class CallControlApi {
  readonly #client: PlatformClient;
  readonly #identity: () => CallIdentity;

  constructor(client: PlatformClient, identity: () => CallIdentity) {
    this.#client = client;
    this.#identity = identity;
  }

  async clickToDial(destination: string): Promise<CommandAccepted> {
    const payload = { destination: normalizeDestination(destination) };
    return this.#command('click-to-dial', payload);
  }

  async hangup(callLegId: string): Promise<CommandAccepted> {
    const id = String(callLegId).trim();
    if (!id) {
      throw new CallbarError('invalid_input', said('errors:calls.emptyLeg'), {
        field: 'call_leg_id',
      });
    }
    return this.#command('hangup', { call_leg_id: id });
  }

  async #command(command: string, payload: Record<string, string>): Promise<CommandAccepted> {
    const { tenant_id, user_extension } = this.#identity();
    const answer = await this.#client.request({
      method: 'post',
      path: CALL_CONTROL,
      scope: 'call-control',
      json: { command, user: { tenant_id, user_extension }, payload },
      schema: CallControlAnswer,
      anyBodyOk: true,
    });
    const callLeg = answer.call_leg_id ?? answer.id;
    return {
      ...(answer.call_id !== undefined ? { call_id: String(answer.call_id) } : {}),
      ...(callLeg !== undefined ? { call_leg_id: String(callLeg) } : {}),
    };
  }
}
