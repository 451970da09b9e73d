/**
 * The platform's data: tenants, users (with extensions and roles), phonebooks and their contacts,
 * and the PBX objects the contract's rules refer to — devices a phonebook is assigned to, call
 * queues and call flows that use contacts, voicemail boxes — whose extensions share one
 * speed-dial number space per tenant with users and contacts.
 */
import { normalizePhoneNumber } from './phone-numbers';

export interface Tenant {
  id: string;
  name: string;
}

export interface User {
  id: number;
  tenantId: string;
  username: string;
  password: string;
  fullName: string;
  extension: string;
  /** The role permission "view all phonebooks". */
  canViewAllPhonebooks: boolean;
}

export interface Phonebook {
  id: number;
  tenantId: string;
  description: string;
  priority: number;
  isShared: boolean;
  ownerIds: number[];
  created: number;
  modified: number;
}

export interface Contact {
  id: number;
  phonebookId: number;
  displayName: string;
  number: string;
  secondaryNumber: string | null;
  speedDial: number;
  company: string;
}

export interface Device {
  id: number;
  tenantId: string;
  name: string;
  mac: string;
  phonebookIds: number[];
}

export interface ContactGroup {
  id: number;
  tenantId: string;
  name: string;
  extension: number;
  contactIds: number[];
}

export interface VoicemailBox {
  id: number;
  tenantId: string;
  name: string;
  extension: number;
}

export interface ContactUsage {
  queues: ContactGroup[];
  flows: ContactGroup[];
}

/** Speed dial: 3-4 digit values in 200-999 and 2000-9999, excluding 9191 (contract 2.5). */
export function isSpeedDialInRange(value: number): boolean {
  return ((value >= 200 && value <= 999) || (value >= 2000 && value <= 9999)) && value !== 9191;
}

export class World {
  readonly tenants: Tenant[] = [];
  readonly users: User[] = [];
  readonly phonebooks = new Map<number, Phonebook>();
  readonly contacts = new Map<number, Contact>();
  readonly devices: Device[] = [];
  readonly callQueues: ContactGroup[] = [];
  readonly callFlows: ContactGroup[] = [];
  readonly voicemailBoxes: VoicemailBox[] = [];
  private nextPhonebookId = 1;
  private nextContactId = 1;

  userByExtension(tenantId: string, extension: string): User | undefined {
    return this.users.find((user) => user.tenantId === tenantId && user.extension === extension);
  }

  userByUsername(username: string): User | undefined {
    return this.users.find((user) => user.username === username);
  }

  userById(id: number): User | undefined {
    return this.users.find((user) => user.id === id);
  }

  canAccessPhonebook(user: User, phonebook: Phonebook): boolean {
    return (
      phonebook.tenantId === user.tenantId &&
      (user.canViewAllPhonebooks || phonebook.ownerIds.includes(user.id))
    );
  }

  /** The phonebook if it exists and the user may see it (DRF queryset semantics: else 404). */
  visiblePhonebook(user: User, id: number): Phonebook | undefined {
    const phonebook = this.phonebooks.get(id);
    return phonebook && this.canAccessPhonebook(user, phonebook) ? phonebook : undefined;
  }

  visiblePhonebooks(user: User): Phonebook[] {
    return [...this.phonebooks.values()].filter((phonebook) =>
      this.canAccessPhonebook(user, phonebook),
    );
  }

  visibleContact(user: User, id: number): Contact | undefined {
    const contact = this.contacts.get(id);
    if (!contact) return undefined;
    const phonebook = this.phonebooks.get(contact.phonebookId);
    return phonebook && this.canAccessPhonebook(user, phonebook) ? contact : undefined;
  }

  visibleContacts(user: User): Contact[] {
    const visible = new Set(this.visiblePhonebooks(user).map((phonebook) => phonebook.id));
    return [...this.contacts.values()].filter((contact) => visible.has(contact.phonebookId));
  }

  tenantOfContact(contact: Contact): string | undefined {
    return this.phonebooks.get(contact.phonebookId)?.tenantId;
  }

  descriptionTaken(tenantId: string, description: string, exceptId?: number): boolean {
    const wanted = description.toLocaleLowerCase();
    return [...this.phonebooks.values()].some(
      (phonebook) =>
        phonebook.tenantId === tenantId &&
        phonebook.id !== exceptId &&
        phonebook.description.toLocaleLowerCase() === wanted,
    );
  }

  /** Whether the phonebook holds another contact with this number (compared normalized). */
  numberTaken(phonebookId: number, number: string, exceptId?: number): boolean {
    const wanted = normalizePhoneNumber(number) ?? number;
    return [...this.contacts.values()].some(
      (contact) =>
        contact.phonebookId === phonebookId &&
        contact.id !== exceptId &&
        (normalizePhoneNumber(contact.number) ?? contact.number) === wanted,
    );
  }

  /** What already uses `value` as an extension in the tenant, in words; undefined if free. */
  speedDialHolder(tenantId: string, value: number, exceptContactId?: number): string | undefined {
    const user = this.users.find(
      (candidate) => candidate.tenantId === tenantId && Number(candidate.extension) === value,
    );
    if (user) return 'a user extension';
    if (this.callQueues.some((queue) => queue.tenantId === tenantId && queue.extension === value))
      return 'a call queue';
    if (this.callFlows.some((flow) => flow.tenantId === tenantId && flow.extension === value))
      return 'a call flow';
    if (this.voicemailBoxes.some((box) => box.tenantId === tenantId && box.extension === value))
      return 'a voicemail box';
    for (const contact of this.contacts.values()) {
      if (contact.speedDial === value && contact.id !== exceptContactId) {
        if (this.tenantOfContact(contact) === tenantId) return 'another phonebook contact';
      }
    }
    return undefined;
  }

  /** Extensions other than contacts' speed dials (users, queues, flows, voicemail). */
  reservedExtensions(tenantId: string): Set<number> {
    return new Set([
      ...this.users.filter((u) => u.tenantId === tenantId).map((u) => Number(u.extension)),
      ...this.callQueues.filter((q) => q.tenantId === tenantId).map((q) => q.extension),
      ...this.callFlows.filter((f) => f.tenantId === tenantId).map((f) => f.extension),
      ...this.voicemailBoxes.filter((v) => v.tenantId === tenantId).map((v) => v.extension),
    ]);
  }

  devicesUsingPhonebook(phonebookId: number): Device[] {
    return this.devices.filter((device) => device.phonebookIds.includes(phonebookId));
  }

  contactUsage(contactId: number): ContactUsage {
    return {
      queues: this.callQueues.filter((queue) => queue.contactIds.includes(contactId)),
      flows: this.callFlows.filter((flow) => flow.contactIds.includes(contactId)),
    };
  }

  addPhonebook(fields: Omit<Phonebook, 'id'>): Phonebook {
    const phonebook: Phonebook = { id: this.nextPhonebookId++, ...fields };
    this.phonebooks.set(phonebook.id, phonebook);
    return phonebook;
  }

  addContact(fields: Omit<Contact, 'id'>): Contact {
    const contact: Contact = { id: this.nextContactId++, ...fields };
    this.contacts.set(contact.id, contact);
    return contact;
  }

  /** Deletes the phonebook and its contacts. */
  deletePhonebook(id: number): void {
    this.phonebooks.delete(id);
    for (const contact of [...this.contacts.values()]) {
      if (contact.phonebookId === id) this.contacts.delete(contact.id);
    }
  }

  deleteContacts(ids: Iterable<number>): void {
    for (const id of ids) this.contacts.delete(id);
  }
}
