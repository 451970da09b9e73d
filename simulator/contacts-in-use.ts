/**
 * The contacts_in_use refusal (contract 4.5 rule 1, section 7): a contact used in a call queue or
 * call flow cannot be deleted. One error item per contact in use; its detail names the contact
 * and each queue and call flow using it.
 */
import { ApiError, type ErrorItem } from './drf-errors';
import type { Contact, World } from './world';

function quotedList(kind: string, names: string[]): string {
  return `${kind}${names.length === 1 ? '' : 's'} ${names.map((name) => `"${name}"`).join(', ')}`;
}

export function contactsInUseError(world: World, contacts: Contact[]): ApiError | undefined {
  const errors: ErrorItem[] = [];
  for (const contact of contacts) {
    const usage = world.contactUsage(contact.id);
    const places: string[] = [];
    if (usage.queues.length > 0)
      places.push(
        quotedList(
          'call queue',
          usage.queues.map((queue) => queue.name),
        ),
      );
    if (usage.flows.length > 0)
      places.push(
        quotedList(
          'call flow',
          usage.flows.map((flow) => flow.name),
        ),
      );
    if (places.length === 0) continue;
    errors.push({
      code: 'contacts_in_use',
      detail: `Contact "${contact.displayName}" (id ${contact.id}) is used in ${places.join(' and ')}; remove it from there first.`,
      attr: null,
    });
  }
  return errors.length > 0 ? new ApiError(400, { type: 'client_error', errors }) : undefined;
}
