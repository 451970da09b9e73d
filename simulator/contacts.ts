/**
 * /v3/phonebook/contact/ (contract 4.5). A contact is visible with its phonebook. Field rules:
 * number unique per phonebook; speed_dial in 200-999 or 2000-9999 but not 9191, and unique among
 * the tenant's contacts, users, call queues, call flows and voicemail boxes. Bulk delete is
 * all-or-nothing: a non-visible ID is 403 with an empty body; a contact in use is contacts_in_use.
 */
import { contactsInUseError } from './contacts-in-use';
import { ApiError, clientError, validationError, type ErrorItem } from './drf-errors';
import {
  FieldProblem,
  integer,
  list,
  nullable,
  optional,
  primaryKey,
  required,
  text,
  andThen,
  validate,
} from './drf-fields';
import { matchesSearch, ordering, searchTerms, tieBreak } from './drf-filters';
import { paginate } from './drf-pagination';
import { emptyResponse, jsonResponse, type SimResponse } from './http';
import { normalizePhoneNumber } from './phone-numbers';
import { requestData } from './request-data';
import { pathId, type RestContext } from './rest-context';
import { isSpeedDialInRange, type Contact } from './world';

const NOT_FOUND = 'No PhonebookContact matches the given query.';
export const MAX_NAME_LENGTH = 255;
export const MAX_NUMBER_LENGTH = 32;

export function contactShape(contact: Contact) {
  return {
    id: contact.id,
    phonebook: contact.phonebookId,
    display_name: contact.displayName,
    number: contact.number,
    secondary_number: contact.secondaryNumber,
    speed_dial: contact.speedDial,
    company: contact.company,
  };
}

const phoneNumber = andThen(text({ maxLength: MAX_NUMBER_LENGTH }), (value) => {
  return normalizePhoneNumber(value) ?? new FieldProblem('invalid', 'Enter a valid phone number.');
});

const speedDial = andThen(integer(), (value) =>
  isSpeedDialInRange(value)
    ? value
    : new FieldProblem('invalid', 'Speed dial must be 200-999 or 2000-9999, excluding 9191.'),
);

function visibleOr404(context: RestContext): Contact {
  const contact = context.platform.world.visibleContact(context.user, pathId(context, NOT_FOUND));
  if (!contact) throw clientError(404, 'not_found', NOT_FOUND);
  return contact;
}

function validContact(context: RestContext, exceptId?: number) {
  const { world } = context.platform;
  const data = validate(
    {
      phonebook: required(
        primaryKey((id) => world.visiblePhonebook(context.user, id) !== undefined),
      ),
      display_name: required(text({ maxLength: MAX_NAME_LENGTH })),
      number: required(phoneNumber),
      secondary_number: nullable(phoneNumber),
      speed_dial: required(speedDial),
      company: optional(text({ maxLength: MAX_NAME_LENGTH, allowBlank: true })),
    },
    requestData(context.request),
  );
  const errors: ErrorItem[] = [];
  if (world.numberTaken(data.phonebook, data.number, exceptId)) {
    errors.push(
      context.platform.config.uniqueNumberError === 'non_field_errors'
        ? // DRF's UniqueTogetherValidator on (phonebook, number), as drf-standardized-errors words it.
          {
            code: 'unique',
            detail: 'The fields phonebook, number must make a unique set.',
            attr: 'non_field_errors',
          }
        : {
            code: 'unique',
            detail: 'A contact with this number already exists in this phonebook.',
            attr: 'number',
          },
    );
  }
  const holder = world.speedDialHolder(context.user.tenantId, data.speed_dial, exceptId);
  if (holder) {
    errors.push({
      code: 'unique',
      detail: `Speed dial ${data.speed_dial} is already used by ${holder}.`,
      attr: 'speed_dial',
    });
  }
  if (errors.length > 0) throw validationError(errors);
  return data;
}

/**
 * django-filter's ModelChoiceFilter on `phonebook` (over the phonebooks the user can see): empty
 * means no filter; anything that is not such a phonebook's id, a number or not, is 400
 * invalid_choice with attr phonebook.
 */
function phonebookFilterValue(context: RestContext, raw: string | null): number | undefined {
  if (raw === null || raw === '') return undefined;
  const id = /^\s*\d+\s*$/.test(raw) ? Number(raw.trim()) : undefined;
  if (id === undefined || !context.platform.world.visiblePhonebook(context.user, id)) {
    throw validationError([
      {
        code: 'invalid_choice',
        detail: 'Select a valid choice. That choice is not one of the available choices.',
        attr: 'phonebook',
      },
    ]);
  }
  return id;
}

export function listContacts(context: RestContext): SimResponse {
  const { world, config } = context.platform;
  const { query } = context.request;
  const phonebookId = phonebookFilterValue(context, query.get('phonebook'));
  const terms = searchTerms(query.get('search'));
  const unordered = config.orderingTies === 'unordered';
  const order = ordering<Contact>(
    query.get('ordering'),
    {
      phonebook: (c) => c.phonebookId,
      display_name: (c) => c.displayName,
      number: (c) => c.number,
      company: (c) => c.company,
      speed_dial: (c) => c.speedDial,
    },
    unordered ? ['display_name'] : ['id'],
    tieBreak(config.orderingTies),
  );
  const contacts = world
    .visibleContacts(context.user)
    .filter((contact) => phonebookId === undefined || contact.phonebookId === phonebookId)
    .filter((contact) =>
      matchesSearch(terms, [
        contact.displayName,
        contact.number,
        String(contact.speedDial),
        contact.company,
      ]),
    )
    .sort(order.compare);
  const page = paginate(contacts, context.request, {
    maxPageSize: config.maxPageSize,
    origin: context.platform.origin,
    pageSizeAboveMax: config.pageSizeAboveMax,
    nextLinks: config.nextLinks,
  });
  return jsonResponse(200, { ...page, results: page.results.map(contactShape) });
}

export function createContact(context: RestContext): SimResponse {
  const data = validContact(context);
  const contact = context.platform.world.addContact({
    phonebookId: data.phonebook,
    displayName: data.display_name,
    number: data.number,
    secondaryNumber: data.secondary_number,
    speedDial: data.speed_dial,
    company: data.company ?? '',
  });
  return jsonResponse(201, contactShape(contact));
}

export function retrieveContact(context: RestContext): SimResponse {
  return jsonResponse(200, contactShape(visibleOr404(context)));
}

export function updateContact(context: RestContext): SimResponse {
  const contact = visibleOr404(context);
  const data = validContact(context, contact.id);
  contact.phonebookId = data.phonebook;
  contact.displayName = data.display_name;
  contact.number = data.number;
  contact.secondaryNumber = data.secondary_number;
  contact.speedDial = data.speed_dial;
  if (data.company !== undefined) contact.company = data.company;
  return jsonResponse(200, contactShape(contact));
}

export function deleteContact(context: RestContext): SimResponse {
  const { world } = context.platform;
  const contact = visibleOr404(context);
  const inUse = contactsInUseError(world, [contact]);
  if (inUse) throw inUse;
  world.deleteContacts([contact.id]);
  return emptyResponse(204);
}

export function bulkDeleteContacts(context: RestContext): SimResponse {
  const { world } = context.platform;
  const data = validate(
    { contact_ids: required(list(integer(), { allowEmpty: false })) },
    requestData(context.request),
  );
  const ids = [...new Set(data.contact_ids)];
  const contacts: Contact[] = [];
  for (const id of ids) {
    const contact = world.visibleContact(context.user, id);
    if (!contact) throw new ApiError(403, null);
    contacts.push(contact);
  }
  const inUse = contactsInUseError(world, contacts);
  if (inUse) throw inUse;
  world.deleteContacts(ids);
  return emptyResponse(204);
}
