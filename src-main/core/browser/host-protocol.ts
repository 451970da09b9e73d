/**
 * What Callbar's browser extension and its native host (`callbar native-host`) say to each other:
 * two requests, `status` and `dial`, each with an id its answer repeats. The host answers
 * nothing else, and nothing in an answer is about the user's contacts or calls: a page the
 * extension runs in learns at most what it already shows (its own numbers).
 */
import { z } from 'zod';

export const RequestId = z
  .number()
  .int()
  .nonnegative()
  .max(2 ** 31);

export const HostRequest = z.discriminatedUnion('type', [
  z.strictObject({ id: RequestId, type: z.literal('status') }),
  z.strictObject({
    id: RequestId,
    type: z.literal('dial'),
    /** A tel: link the extension made of a number on a page (or the page's own tel: link). */
    link: z.string().min(1).max(512),
  }),
]);
export type HostRequest = z.infer<typeof HostRequest>;

/** The words the extension shows, in the user's language (Callbar's `language` setting). */
export interface HostLabels {
  /** A found number's accessible name, with `{number}` where the number goes. */
  call: string;
  /** The context menu item. */
  menu: string;
}

export type HostAnswer =
  | {
      id: number;
      type: 'status';
      ok: true;
      /** The region numbers without a country code are read in (Callbar's `region` setting). */
      region: string;
      language: string;
      labels: HostLabels;
    }
  | {
      id: number;
      type: 'dial';
      ok: true;
      /** dialing: the platform was asked; asking: Callbar's window asks first. */
      status: 'dialing' | 'asking';
      /** What happened, in the user's language, for a notification. */
      message: string;
    }
  | {
      id: number | null;
      type: 'status' | 'dial' | 'error';
      ok: false;
      code: string;
      /** Why, in the user's language. */
      message: string;
    };
