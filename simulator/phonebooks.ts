/**
 * /v3/phonebook/phonebook/ (contract 4.4). Visibility follows the ownership rules: a user sees the
 * phonebooks they own, or every phonebook of the tenant with the "view all phonebooks" role; any
 * other phonebook does not exist for them (404, as a DRF queryset filter answers). Reads render
 * owners as {id, username} with created/modified; create and update answer with owner IDs only.
 */
import { contactsInUseError } from './contacts-in-use';
import { clientError, validationError, type ErrorItem } from './drf-errors';
import { boolean, integer, optional, primaryKeys, required, text, validate } from './drf-fields';
import { matchesSearch, ordering, searchTerms, tieBreak } from './drf-filters';
import { paginate } from './drf-pagination';
import { emptyResponse, jsonResponse, type SimResponse } from './http';
import { requestData } from './request-data';
import { pathId, type RestContext } from './rest-context';
import { isoWithOffset } from './timestamps';
import type { Phonebook, World } from './world';

const NOT_FOUND = 'No Phonebook matches the given query.';
export const MAX_DESCRIPTION_LENGTH = 255;

export function phonebookReadShape(world: World, phonebook: Phonebook, timeZone: string) {
  return {
    id: phonebook.id,
    description: phonebook.description,
    priority: phonebook.priority,
    is_shared: phonebook.isShared,
    owners: phonebook.ownerIds.map((id) => ({ id, username: world.userById(id)?.username ?? '' })),
    created: isoWithOffset(phonebook.created, timeZone),
    modified: isoWithOffset(phonebook.modified, timeZone),
  };
}

function phonebookWriteShape(phonebook: Phonebook) {
  return {
    id: phonebook.id,
    priority: phonebook.priority,
    description: phonebook.description,
    is_shared: phonebook.isShared,
    owners: [...phonebook.ownerIds],
  };
}

function visibleOr404(context: RestContext): Phonebook {
  const phonebook = context.platform.world.visiblePhonebook(
    context.user,
    pathId(context, NOT_FOUND),
  );
  if (!phonebook) throw clientError(404, 'not_found', NOT_FOUND);
  return phonebook;
}

function validPhonebook(context: RestContext, exceptId?: number) {
  const { world } = context.platform;
  const tenantUser = (id: number) => world.userById(id)?.tenantId === context.user.tenantId;
  const data = validate(
    {
      description: required(text({ maxLength: MAX_DESCRIPTION_LENGTH })),
      priority: required(integer({ min: 0, max: 2_147_483_647 })),
      is_shared: required(boolean()),
      owners: optional(primaryKeys(tenantUser)),
    },
    requestData(context.request),
  );
  if (world.descriptionTaken(context.user.tenantId, data.description, exceptId)) {
    const errors: ErrorItem[] = [
      {
        code: 'invalid',
        detail: `A phonebook with the description "${data.description}" already exists.`,
        attr: 'description.unique_description',
      },
    ];
    throw validationError(errors);
  }
  return data;
}

export function listPhonebooks(context: RestContext): SimResponse {
  const { world, config, timeZone } = context.platform;
  const { query } = context.request;
  const terms = searchTerms(query.get('search'));
  const order = ordering<Phonebook>(
    query.get('ordering'),
    {
      priority: (p) => p.priority,
      is_shared: (p) => p.isShared,
      description: (p) => p.description,
    },
    config.orderingTies === 'unordered' ? ['priority'] : ['id'],
    tieBreak(config.orderingTies),
  );
  const phonebooks = world
    .visiblePhonebooks(context.user)
    .filter((phonebook) =>
      matchesSearch(terms, [
        phonebook.description,
        ...phonebook.ownerIds.map((id) => world.userById(id)?.username ?? ''),
      ]),
    )
    .sort(order.compare);
  const page = paginate(phonebooks, context.request, {
    maxPageSize: config.maxPageSize,
    origin: context.platform.origin,
    pageSizeAboveMax: config.pageSizeAboveMax,
    nextLinks: config.nextLinks,
  });
  return jsonResponse(200, {
    ...page,
    results: page.results.map((phonebook) => phonebookReadShape(world, phonebook, timeZone)),
  });
}

export function createPhonebook(context: RestContext): SimResponse {
  const data = validPhonebook(context);
  const now = context.platform.clock.now();
  const phonebook = context.platform.world.addPhonebook({
    tenantId: context.user.tenantId,
    description: data.description,
    priority: data.priority,
    isShared: data.is_shared,
    ownerIds: data.owners ?? [context.user.id],
    created: now,
    modified: now,
  });
  return jsonResponse(201, phonebookWriteShape(phonebook));
}

export function retrievePhonebook(context: RestContext): SimResponse {
  const phonebook = visibleOr404(context);
  return jsonResponse(
    200,
    phonebookReadShape(context.platform.world, phonebook, context.platform.timeZone),
  );
}

export function updatePhonebook(context: RestContext): SimResponse {
  const phonebook = visibleOr404(context);
  const data = validPhonebook(context, phonebook.id);
  phonebook.description = data.description;
  phonebook.priority = data.priority;
  phonebook.isShared = data.is_shared;
  if (data.owners !== undefined) phonebook.ownerIds = data.owners;
  phonebook.modified = context.platform.clock.now();
  return jsonResponse(200, phonebookWriteShape(phonebook));
}

export function deletePhonebook(context: RestContext): SimResponse {
  const { world } = context.platform;
  const phonebook = visibleOr404(context);
  const devices = world.devicesUsingPhonebook(phonebook.id);
  if (devices.length > 0) {
    const list = devices.map((device) => `${device.name} (${device.mac})`).join(', ');
    throw clientError(
      400,
      'phonebook_in_use',
      `Phonebook "${phonebook.description}" is assigned to ${devices.length === 1 ? 'a device' : 'devices'} and cannot be deleted: ${list}.`,
    );
  }
  // Deleting a phonebook deletes its contacts, so a contact in use protects its phonebook too.
  const contacts = [...world.contacts.values()].filter(
    (contact) => contact.phonebookId === phonebook.id,
  );
  const inUse = contactsInUseError(world, contacts);
  if (inUse) throw inUse;
  world.deletePhonebook(phonebook.id);
  return emptyResponse(204);
}
