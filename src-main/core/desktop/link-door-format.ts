/**
 * What the link door (link-door.ts) and the programs that knock on it (link-door-knock.ts) say to
 * each other, and the door file that tells them where it is. One JSON line each way: a knock
 * `{"key","link"}`, an answer `{"ok":true,"status","display"}` or `{"ok":false,"error"}`.
 */
import { join } from 'node:path';
import { z } from 'zod';

/** The door file's name in the profile folder (0600, beside settings.json). */
export const DOOR_FILE_NAME = 'link-door.json';

/** Where the running Callbar of the profile in `dataDir` says its door is. */
export function doorFilePath(dataDir: string): string {
  return join(dataDir, DOOR_FILE_NAME);
}

/** A knock, answer or door file is never longer than this (bytes, with its newline). */
export const DOOR_LINE_LIMIT = 4096;

/** As long as `calls.openUrl` accepts (its `url` is at most 512 characters). */
export const DOOR_LINK_LIMIT = 512;

export const DoorFile = z.object({
  version: z.literal(1),
  /** A Unix domain socket's path, or a Windows named pipe (`\\.\pipe\…`). */
  address: z.string().min(1).max(1024),
  /** The key every knock must carry (random, per run). */
  key: z.string().min(32).max(128),
  /** The running Callbar's process (for `callbar browser status` and support). */
  pid: z.number().int().positive(),
});
export type DoorFile = z.infer<typeof DoorFile>;

export const DoorKnock = z.strictObject({
  key: z.string().max(128),
  link: z
    .string()
    .min(1)
    .max(DOOR_LINK_LIMIT)
    // Control characters never belong in a link (a newline could forge a log line).
    .refine((link) => !/\p{Cc}/u.test(link)),
});
export type DoorKnock = z.infer<typeof DoorKnock>;

export const DoorAnswer = z.discriminatedUnion('ok', [
  z.object({
    ok: z.literal(true),
    /** dialing: the platform was asked; asking: the running Callbar's window asks first. */
    status: z.enum(['dialing', 'asking']),
    /** The number as Callbar shows it ("+49 30 1234567"): never a contact's name. */
    display: z.string().max(200),
  }),
  z.object({
    ok: z.literal(false),
    /** A sentence in the running Callbar's language. */
    error: z.object({ code: z.string().max(64), message: z.string().max(1000) }),
  }),
]);
export type DoorAnswer = z.infer<typeof DoorAnswer>;
