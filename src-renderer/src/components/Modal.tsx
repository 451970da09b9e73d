import { useEffect, useRef, type ReactNode } from 'react';

/**
 * A modal dialog on the platform's own <dialog>: focus moves into it (to the element marked
 * data-autofocus), stays inside while open, Esc cancels, and focus returns where it was on close.
 * (React's autoFocus would focus before showModal, while the dialog is still closed.)
 */
export function Modal({
  titleId,
  onCancel,
  children,
}: {
  titleId: string;
  onCancel: () => void;
  children: ReactNode;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    const returnTo = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    element.showModal();
    element.querySelector<HTMLElement>('[data-autofocus]')?.focus();
    return () => {
      element.close();
      returnTo?.focus();
    };
  }, []);
  return (
    <dialog
      ref={dialog}
      className="modal"
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        onCancel();
      }}
    >
      {children}
    </dialog>
  );
}
