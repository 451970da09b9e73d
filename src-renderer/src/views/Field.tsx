import { useId, type ReactElement } from 'react';
import { cloneElement } from 'react';

/** What a setting an organisation's policy locked says under it (the control is disabled). */
export const LOCKED_TEXT = 'Set by your organisation';

/**
 * A labelled input with its error right under it: the input is marked invalid and described by
 * the error (and by a hint, when there is one), so a screen reader reads both. `locked` (the
 * policy that set it): the input is disabled and says "Set by your organisation".
 */
export function Field({
  label,
  error,
  hint,
  locked,
  children,
}: {
  label: string;
  error?: string | undefined;
  hint?: string | undefined;
  locked?: string | undefined;
  children: ReactElement<Record<string, unknown>>;
}) {
  const id = useId();
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const lockedId = `${id}-locked`;
  const described = [locked ? lockedId : '', hint ? hintId : '', error ? errorId : '']
    .filter(Boolean)
    .join(' ');
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {cloneElement(children, {
        id,
        'aria-invalid': error ? true : undefined,
        'aria-describedby': described || undefined,
        ...(locked ? { disabled: true } : {}),
      })}
      {locked ? (
        <p id={lockedId} className="hint locked" data-testid="locked" title={locked}>
          {LOCKED_TEXT}
        </p>
      ) : null}
      {hint ? (
        <p id={hintId} className="hint">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={errorId} className="field-error">
          {error}
        </p>
      ) : null}
    </div>
  );
}
