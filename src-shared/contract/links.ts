/**
 * Out of the window: CRM link-outs (an address template from the settings, filled with a call's
 * or a contact's party and opened in the system browser) and files saved from the window
 * (exports read in pieces, then saved by the window's download).
 * Part of the IPC contract (src-shared/contract/index.ts says what it is).
 */
import { z } from 'zod';
import { entityId } from './phonebooks';

/** A CRM link the settings offer, under the name it is shown with (the template's host). */
export const CrmLinkOffer = z.object({
  /** Its place in the setting `crm_links` (what `crm.open` names). */
  index: z.number().int(),
  label: z.string(),
});
export type CrmLinkOffer = z.infer<typeof CrmLinkOffer>;

/** Whom a CRM link is opened for: a call's other party or a contact. */
export const CrmParty = z.strictObject({
  number: z.string().max(64),
  name: z.string().max(1000).optional(),
  company: z.string().max(1000).optional(),
});
export type CrmParty = z.infer<typeof CrmParty>;

/** Characters one `exports.read` carries (the web preview's bodies are ≤ 1 MB). */
export const EXPORT_PIECE_CHARS = 256 * 1024;

export const exportId = z.string().min(1).max(64);

/** What to export: contacts (one phonebook, or every one) as CSV or vCard 4.0, or recent calls. */
export const ExportRequest = z.discriminatedUnion('what', [
  z.strictObject({
    what: z.literal('contacts'),
    phonebook: entityId.optional(),
    format: z.enum(['csv', 'vcard']),
  }),
  z.strictObject({ what: z.literal('calls') }),
]);
export type ExportRequest = z.infer<typeof ExportRequest>;

export const ExportPiece = z.object({
  text: z.string(),
  /** True with the last piece (the export is then closed). */
  done: z.boolean(),
  /** Contacts or calls written so far. */
  items: z.number().int(),
});
export type ExportPiece = z.infer<typeof ExportPiece>;
