import { cloneElement, useId, type ReactElement, type ReactNode } from 'react';
import { LOCKED_TEXT } from './Field';

/**
 * One setting in the Settings view: its label, its control, a hint and its own error right under
 * it (the control is marked invalid and described by both, so a screen reader reads them). Every
 * setting goes through here, so what applies to all of them (a setting fixed by an organisation's
 * policy) is added in this one place. `check`: a checkbox with its label after it. `locked` (the
 * policy that set it): the control is disabled and says "Set by your organisation".
 */
export function SettingField({
  label,
  hint,
  error,
  check = false,
  locked,
  children,
}: {
  label: ReactNode;
  hint?: ReactNode;
  error?: string | undefined;
  check?: boolean;
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
  const control = cloneElement(children, {
    id,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': described || undefined,
    ...(locked ? { disabled: true } : {}),
  });
  return (
    <div className={check ? 'setting setting-check' : 'setting'}>
      {check ? (
        <>
          {control}
          <label htmlFor={id}>{label}</label>
        </>
      ) : (
        <>
          <label htmlFor={id}>{label}</label>
          {control}
        </>
      )}
      {locked ? (
        <p id={lockedId} className="setting-hint locked" data-testid="locked" title={locked}>
          {LOCKED_TEXT}
        </p>
      ) : null}
      {hint ? (
        <p id={hintId} className="setting-hint">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={errorId} className="setting-error">
          {error}
        </p>
      ) : null}
    </div>
  );
}
