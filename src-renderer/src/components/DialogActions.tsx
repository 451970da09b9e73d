import type { ReactNode } from 'react';

/**
 * A dialog's buttons, in one order everywhere: anything aside (a download) at the start, then
 * Cancel (or Keep, Close), then the main action last, at the end of the line. They keep their
 * space apart and wrap as a whole, and stay in view at the dialog's foot when its body scrolls.
 */
export function DialogActions({
  aside,
  cancel,
  main,
}: {
  aside?: ReactNode;
  cancel: ReactNode;
  main?: ReactNode;
}) {
  return (
    <div className="dialog-actions" data-testid="dialog-actions">
      {aside ? <div className="dialog-actions-aside">{aside}</div> : null}
      {cancel}
      {main}
    </div>
  );
}
