import { cloneElement, useId, type ReactElement, type ReactNode } from 'react';
import { useTranslation } from '../i18n';
import { CoreText } from './CoreText';

/** The class names of a field's parts: an editor's fields and the Settings view's look apart. */
const LOOKS = {
  editor: { root: 'field', check: 'field', hint: 'hint', error: 'field-error' },
  setting: {
    root: 'setting',
    check: 'setting setting-check',
    hint: 'setting-hint',
    error: 'setting-error',
  },
} as const;

/**
 * A labelled control with its error right under it: the control is marked invalid and described
 * by the error (and by a hint, when there is one), so a screen reader reads both. `locked` (the
 * policy that set it): the control is disabled and says "Set by your organisation". `check`: a
 * checkbox with its label after it.
 */
export function Field({
  label,
  error,
  hint,
  locked,
  check = false,
  look = 'editor',
  status,
  children,
}: {
  label: ReactNode;
  error?: string | undefined;
  hint?: ReactNode;
  locked?: string | undefined;
  check?: boolean;
  look?: keyof typeof LOOKS;
  /** A quiet word after the label ("Saved"), shown, not read (the view says it once). */
  status?: ReactNode;
  children: ReactElement<Record<string, unknown>>;
}) {
  const { t } = useTranslation();
  const id = useId();
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const lockedId = `${id}-locked`;
  const classes = LOOKS[look];
  const described = [locked ? lockedId : '', hint ? hintId : '', error ? errorId : '']
    .filter(Boolean)
    .join(' ');
  const control = cloneElement(children, {
    id,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': described || undefined,
    ...(locked ? { disabled: true } : {}),
  });
  const labelled = (
    <label htmlFor={id}>
      {label}
      {status ? (
        <span className="field-status" aria-hidden="true" data-testid="field-saved">
          {status}
        </span>
      ) : null}
    </label>
  );
  return (
    <div className={check ? classes.check : classes.root}>
      {check ? (
        <>
          {control}
          {labelled}
        </>
      ) : (
        <>
          {labelled}
          {control}
        </>
      )}
      {locked ? (
        <p id={lockedId} className={`${classes.hint} locked`} data-testid="locked" title={locked}>
          {t('common.locked')}
        </p>
      ) : null}
      {hint ? (
        <p id={hintId} className={classes.hint}>
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={errorId} className={classes.error}>
          <CoreText>{error}</CoreText>
        </p>
      ) : null}
    </div>
  );
}
