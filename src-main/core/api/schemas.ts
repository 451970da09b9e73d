/**
 * zod schemas for every shape in the platform contract (sections 2, 4 and 7). Each schema is the
 * type. Responses are read tolerantly: unknown fields are dropped, optional "not shown" fields may
 * be missing or null; a response that lacks what the contract requires is a ProtocolError.
 */
import { z } from 'zod';
import { said, type Said } from '../text/said';
import { inEnglish } from '../text/translators';

/** A check's message, worded when a value fails it, not when the schema is built at load. */
const failing = (text: Said) => ({ error: () => inEnglish(text) });

const id = z.number().int();

/**
 * The longest text Callbar keeps of a name, company, description or username from the platform
 * (the contract does not show maximum lengths). Longer text is kept cut, ending in
 * TRUNCATION_MARK, so one contact cannot make the directory, its cache file or a search large.
 */
export const MAX_TEXT_CHARS = 256;
export const TRUNCATION_MARK = '…';

/**
 * The longest phone number accepted from the platform (E.164 has 15 digits; spaces, punctuation
 * and an extension fit well within). A longer one is refused, not cut: a cut number would dial
 * someone else.
 */
export const MAX_NUMBER_CHARS = 64;

/**
 * `value` cut to MAX_TEXT_CHARS with the mark (never in the middle of a surrogate pair). The cut
 * is copied into a string of its own: a slice would keep the whole original alive in V8 (a 1 MB
 * name held for its first 255 characters).
 */
export function capText(value: string): string {
  if (value.length <= MAX_TEXT_CHARS) return value;
  let kept = value.slice(0, MAX_TEXT_CHARS - TRUNCATION_MARK.length);
  if (/[\uD800-\uDBFF]$/.test(kept)) kept = kept.slice(0, -1);
  return Array.from(kept).join('') + TRUNCATION_MARK;
}

/** Text from the platform, capped where it enters. */
const platformText = z.string().transform(capText);

/** A phone number from the platform, refused past MAX_NUMBER_CHARS. */
const platformNumber = z
  .string()
  .max(
    MAX_NUMBER_CHARS,
    `a phone number longer than ${MAX_NUMBER_CHARS} characters is not a phone number`,
  );

/** An owner as list and retrieve return it. */
export const PhonebookOwner = z.object({ id, username: platformText });

/** A phonebook as list and retrieve return it (owners as objects, with timestamps). */
export const Phonebook = z.object({
  id,
  description: platformText,
  priority: z.number().int(),
  is_shared: z.boolean(),
  owners: z
    .array(PhonebookOwner)
    .nullish()
    .transform((owners) => owners ?? []),
  created: z.string().optional(),
  modified: z.string().optional(),
});
export type Phonebook = z.infer<typeof Phonebook>;

/** A phonebook as create and update return it (owners as integer IDs, no timestamps). */
export const WrittenPhonebook = z.object({
  id,
  description: platformText,
  priority: z.number().int(),
  is_shared: z.boolean(),
  owners: z
    .array(id)
    .nullish()
    .transform((owners) => owners ?? []),
});
export type WrittenPhonebook = z.infer<typeof WrittenPhonebook>;

/** What create and update send. */
export const PhonebookInput = z.object({
  description: z
    .string()
    .trim()
    .min(1, failing(said('errors:phonebookEdit.enterDescription'))),
  priority: z.number().int(),
  is_shared: z.boolean(),
  owners: z.array(id).optional(),
});
export type PhonebookInput = z.infer<typeof PhonebookInput>;

/**
 * A phonebook contact (the same shape is read and written back; a name or company read cut is
 * written back cut).
 */
export const Contact = z.object({
  id,
  phonebook: id,
  display_name: platformText,
  number: platformNumber,
  secondary_number: platformNumber.nullish().transform((value) => value || null),
  speed_dial: z.number().int().nullish(),
  company: platformText.nullish().transform((value) => value ?? ''),
});
export type Contact = z.infer<typeof Contact>;

/** speed_dial: 200–999 or 2000–9999, never 9191 (contract 2.5). */
export const SpeedDial = z
  .number()
  .int(failing(said('errors:phonebookEdit.speedDialWhole')))
  .refine(
    (value) =>
      ((value >= 200 && value <= 999) || (value >= 2000 && value <= 9999)) && value !== 9191,
    failing(said('errors:phonebookEdit.speedDialRange')),
  );

/** What contact create and update send. */
export const ContactInput = z.object({
  phonebook: id,
  display_name: z
    .string()
    .trim()
    .min(1, failing(said('errors:phonebookEdit.enterName'))),
  number: z
    .string()
    .trim()
    .min(1, failing(said('errors:phonebookEdit.enterNumber'))),
  secondary_number: z.string().trim().nullable(),
  speed_dial: SpeedDial,
  company: z.string().optional(),
});
export type ContactInput = z.infer<typeof ContactInput>;

/** DRF page: {count, next, previous, results}. */
export function Page<T extends z.ZodType>(item: T) {
  return z.object({
    count: z.number().int().nonnegative(),
    next: z.string().nullable(),
    previous: z.string().nullable(),
    results: z.array(item),
  });
}
export type Page<T> = { count: number; next: string | null; previous: string | null; results: T[] };

/** The errors of one error body Callbar keeps (and shows), in the platform's order. */
export const MAX_ERRORS_KEPT = 20;

/**
 * The structured error body (contract 7). Each text is capped and only the first MAX_ERRORS_KEPT
 * errors are kept: the details become the message a person reads.
 */
export const ErrorBody = z.object({
  type: platformText,
  errors: z
    .array(
      z.object({
        code: platformText,
        detail: platformText,
        attr: platformText
          .nullable()
          .optional()
          .transform((attr) => attr ?? null),
      }),
    )
    .transform((errors) => errors.slice(0, MAX_ERRORS_KEPT)),
});
export type ErrorBody = z.infer<typeof ErrorBody>;

/** List queries (phonebooks and contacts). */
export const ListQuery = z.object({
  search: z.string().optional(),
  ordering: z.string().optional(),
  page: z.number().int().positive().optional(),
  page_size: z.number().int().positive().optional(),
});
export type ListQuery = z.infer<typeof ListQuery>;

export const ContactListQuery = ListQuery.extend({ phonebook: id.optional() });
export type ContactListQuery = z.infer<typeof ContactListQuery>;

/**
 * A call-control answer: the contract does not show it, so anything (or nothing) is accepted and
 * the ids are picked up when present.
 */
export const CallControlAnswer = z
  .looseObject({
    call_id: z.union([z.string(), z.number()]).optional(),
    call_leg_id: z.union([z.string(), z.number()]).optional(),
    id: z.union([z.string(), z.number()]).optional(),
  })
  .catch({});
export type CallControlAnswer = z.infer<typeof CallControlAnswer>;
