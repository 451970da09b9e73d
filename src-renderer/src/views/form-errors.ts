import type { ErrorInfo } from '../../../src-shared/contract';

/** What a refused save says: a sentence per field (shown next to it) and one for the whole form. */
export interface FormErrors {
  fields: Record<string, string>;
  /** A sentence not tied to a field shown, or undefined. */
  form: string | undefined;
  /** The request and status behind `form`, for the "Details" disclosure. */
  details?: string | undefined;
}

export const NO_ERRORS: FormErrors = { fields: {}, form: undefined };

/** Splits core's error into the form's fields (`shown`) and the rest. */
export function formErrors(error: ErrorInfo, shown: readonly string[]): FormErrors {
  const all = { ...error.fields };
  if (error.field && !all[error.field]) all[error.field] = error.message;
  const fields: Record<string, string> = {};
  for (const [field, message] of Object.entries(all)) {
    if (shown.includes(field)) fields[field] = message;
  }
  const covered = Object.keys(fields).length > 0;
  return covered
    ? { fields, form: undefined }
    : { fields, form: error.message, details: error.details };
}
