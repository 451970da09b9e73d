import { useEffect, useRef } from 'react';
import type { FormErrors } from '../views/form-errors';

/**
 * After a refused save, the focus goes to the first field marked invalid (in the form's order),
 * or else to the form's own error, so it never drops to the page. Returns the form's ref.
 */
export function useFocusFirstInvalid(errors: FormErrors) {
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (Object.keys(errors.fields).length === 0 && errors.form === undefined) return;
    const first =
      form.current?.querySelector<HTMLElement>('[aria-invalid="true"]') ??
      form.current?.querySelector<HTMLElement>('[role="alert"]');
    if (first && !first.matches('input, select, textarea, button')) first.tabIndex = -1;
    first?.focus();
  }, [errors]);
  return form;
}
