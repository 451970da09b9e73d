/**
 * A Said as a file keeps it (a finished call's reason in calls.json): its catalog key and values,
 * so whoever shows it later words it in the reader's language. A profile's files are read as
 * input from outside: the key is a catalog path, the texts and lists are bounded, and Saids nest
 * at most MAX_DEPTH deep (a schema per depth, no recursion to exhaust).
 */
import { z } from 'zod';
import type { Said, SaidValue } from './said';

/** `errors:callEnd.youHungUp`: a namespace and a dotted path. */
const KEY = /^[a-z]+:[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/;
const MAX_TEXT = 2000;
const MAX_VALUES = 20;
const MAX_JOINED = 50;
const MAX_DEPTH = 4;

function saidAt(depth: number): z.ZodType<Said> {
  const inner = depth > 0 ? saidAt(depth - 1) : undefined;
  const text = z.string().max(MAX_TEXT);
  const plain: z.ZodType<SaidValue>[] = [
    text,
    z.number(),
    z.strictObject({ region: z.string().max(8) }),
  ];
  const nested: z.ZodType<SaidValue>[] = inner
    ? [
        inner,
        z.strictObject({
          joined: z.array(z.union([text, inner])).max(MAX_JOINED),
          by: z.string().max(10),
        }),
        z.strictObject({ capitalised: z.union([text, z.number(), inner]) }),
      ]
    : [];
  const value = z.union([...plain, ...nested] as [
    z.ZodType<SaidValue>,
    z.ZodType<SaidValue>,
    ...z.ZodType<SaidValue>[],
  ]);
  return z.strictObject({
    key: z.string().max(200).regex(KEY),
    values: z
      .record(z.string().max(64), value)
      .refine((values) => Object.keys(values).length <= MAX_VALUES)
      .optional(),
  });
}

/** A Said as stored. */
export const SaidFormat = saidAt(MAX_DEPTH);
