/**
 * A profile file's own format on disk: its content schema (owned by the code that owns the file,
 * never the IPC contract's objects, so a changed IPC field cannot silently change a file), written
 * with a `version` number, and read back migrated from the shapes it had before.
 *
 * Reading a file: no `version` (or a lower one) is an older Callbar's shape, migrated; the current
 * version is read as is; a higher version was written by a newer Callbar and is refused with
 * NewerFileFormat, so the owner sets that file aside (named, in the log) rather than overwriting
 * data it cannot read.
 */
import { z } from 'zod';

/** A file written by a newer Callbar, in a format version this one does not know. */
export class NewerFileFormat extends Error {
  constructor(
    readonly version: number,
    readonly known: number,
  ) {
    super(`written in format version ${version} by a newer Callbar; this one reads up to ${known}`);
    this.name = 'NewerFileFormat';
  }
}

export interface FileFormat<T> {
  /** The version written now. */
  readonly version: number;
  /** The file as written: the content with `version`. */
  readonly schema: z.ZodType<T & { version: number }>;
  /**
   * The content of a file as read (parsed JSON): migrated from an older shape and checked.
   * Throws NewerFileFormat for a version newer than this one, a ZodError for a malformed file.
   */
  parse(raw: unknown): T;
  /** What to write for `content`: checked, with the version. */
  serialize(content: T): T & { version: number };
}

/**
 * The format `version` of a file whose content is `content`; `migrate` turns an older file (no
 * `version`, or a lower one; the object as read) into the current content (without it, older
 * files had the same content).
 */
export function fileFormat<Shape extends z.ZodRawShape>(spec: {
  version: number;
  content: z.ZodObject<Shape>;
  migrate?: (old: Record<string, unknown>) => unknown;
}): FileFormat<z.infer<z.ZodObject<Shape>>> {
  type T = z.infer<z.ZodObject<Shape>>;
  const schema = spec.content.extend({ version: z.literal(spec.version) }) as unknown as z.ZodType<
    T & { version: number }
  >;
  return {
    version: spec.version,
    schema,
    parse(raw) {
      if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
        return spec.content.parse(raw);
      }
      const record = raw as Record<string, unknown>;
      const version = record.version;
      if (typeof version === 'number' && version > spec.version) {
        throw new NewerFileFormat(version, spec.version);
      }
      const content = { ...record };
      delete content.version;
      return spec.content.parse(
        version === spec.version || !spec.migrate ? content : spec.migrate(content),
      );
    },
    serialize(content) {
      return { version: spec.version, ...spec.content.parse(content) };
    },
  };
}

/** The name a file written by a newer Callbar is kept under, beside the original. */
export function setAsideName(file: string, version: number, now = Date.now()): string {
  return `${file}.version-${version}-${now}`;
}
