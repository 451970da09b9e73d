/**
 * The building blocks every part of the contract shares: the envelope of every answer, the error a failed call carries, what the app says about itself, and small schemas the parts reuse.
 * Part of the IPC contract (src-shared/contract/index.ts says what it is).
 */
import { z } from 'zod';

/** Where a request or event travels between processes. */
export const EVENT_CHANNEL = 'callbar.event';

export const Runtime = z.enum(['electron', 'preview']);
export type Runtime = z.infer<typeof Runtime>;

export const AppInfo = z.object({
  name: z.string(),
  version: z.string(),
  /** `process.platform` of the main process: linux, darwin, win32. */
  platform: z.string(),
  /** Electron when running in the desktop shell; preview when served to a browser by the web preview. */
  runtime: Runtime,
  versions: z.object({
    node: z.string(),
    electron: z.string().optional(),
    chrome: z.string().optional(),
  }),
});
export type AppInfo = z.infer<typeof AppInfo>;

/** What a failed call carries across the boundary: a stable code and a sentence for a person. */
export const ErrorInfo = z.object({
  code: z.string(),
  message: z.string(),
  /** The request field the error concerns, when there is one (for showing it next to the input). */
  field: z.string().optional(),
  /** Every field the platform refused, with its sentence (a form shows each next to its input). */
  fields: z.record(z.string(), z.string()).optional(),
  /** What only someone looking into it needs (the request, the HTTP status), behind "Details". */
  details: z.string().optional(),
});
export type ErrorInfo = z.infer<typeof ErrorInfo>;

export type Result<T> = { ok: true; value: T } | { ok: false; error: ErrorInfo };

/** The envelope of every response; `value` is checked against the channel's response schema. */
export const ResultEnvelope = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), value: z.unknown() }),
  z.object({ ok: z.literal(false), error: ErrorInfo }),
]);

export const NoRequest = z.strictObject({});

export const isoTime = z.string();
