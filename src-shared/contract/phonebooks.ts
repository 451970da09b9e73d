/**
 * Phonebooks and contacts as the window edits them on the platform.
 * Part of the IPC contract (src-shared/contract/index.ts says what it is).
 */
import { z } from 'zod';
import { ShownNumbers } from './directory';

export const entityId = z.number().int().positive();
export const listSearch = z.string().max(200).optional();
export const listPage = z.number().int().positive().max(100_000).default(1);

/** A phonebook as the window shows it (owners as the platform's user ids). */
export const PhonebookView = z.object({
  id: z.number().int(),
  description: z.string(),
  priority: z.number().int(),
  is_shared: z.boolean(),
  /**
   * How many contacts it holds, as this computer's copy of the directory counts them (the
   * platform's list does not say): absent until the directory has synced it.
   */
  contacts: z.number().int().nonnegative().optional(),
});
export type PhonebookView = z.infer<typeof PhonebookView>;

/** What the phonebook editor sends (the platform's write shape, owners left as they are). */
export const PhonebookFields = z.strictObject({
  description: z.string().max(500),
  /** As typed (text is checked by core, which names the field). */
  priority: z.union([z.number(), z.string().max(20)]),
  is_shared: z.boolean(),
});
export type PhonebookFields = z.infer<typeof PhonebookFields>;

export const PhonebookOrdering = z.enum([
  'priority',
  '-priority',
  'description',
  '-description',
  'is_shared',
  '-is_shared',
]);
export type PhonebookOrdering = z.infer<typeof PhonebookOrdering>;

/** A phonebook contact as the platform holds it. */
export const ContactView = z.object({
  id: z.number().int(),
  phonebook: z.number().int(),
  display_name: z.string(),
  number: z.string(),
  secondary_number: z.string().nullable(),
  speed_dial: z.number().int().nullable(),
  company: z.string(),
  /** The numbers as a person reads them (core formats them; the editor edits the stored ones). */
  shown: ShownNumbers,
});
export type ContactView = z.infer<typeof ContactView>;

/**
 * What the contact editor sends. Loose on purpose (a number field may still hold text): core
 * checks the platform's rules and answers with the field and a sentence.
 */
export const ContactFields = z.strictObject({
  phonebook: entityId,
  display_name: z.string().max(500),
  number: z.string().max(100),
  secondary_number: z.string().max(100).nullable().default(null),
  /** As typed (text is checked by core, which names the field). */
  speed_dial: z.union([z.number(), z.string().max(20)]),
  company: z.string().max(500).default(''),
});
export type ContactFields = z.infer<typeof ContactFields>;

export const ContactOrdering = z.enum([
  'display_name',
  '-display_name',
  'number',
  '-number',
  'company',
  '-company',
  'speed_dial',
  '-speed_dial',
]);
export type ContactOrdering = z.infer<typeof ContactOrdering>;

/** One page of a platform list, as the window pages through it. */
export function ListPage<T extends z.ZodType>(item: T) {
  return z.object({
    count: z.number().int().nonnegative(),
    page: z.number().int().positive(),
    page_size: z.number().int().positive(),
    has_more: z.boolean(),
    results: z.array(item),
  });
}
