import { useEffect, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { Icon } from './Icon';
import { rovingTarget } from './roving-focus';

export interface RowAction {
  label: string;
  danger?: boolean;
  /** Set apart from the items before it (a line above). */
  apart?: boolean;
  run: () => void;
}

/**
 * A button and its menu of less frequent actions: a list row's "⋯" (Edit, Delete), or a screen's
 * "More" (Import, Export, Select). The menu is a WAI-ARIA menu: it opens with the focus on its
 * first item, ↑/↓ (and Home/End) move, Enter runs, Esc or Tab closes with the focus back on the
 * button, as does a click anywhere else.
 */
export function RowMenu({
  label,
  actions,
  text,
  className,
}: {
  /** The button's and the menu's accessible name ("More actions for Ada Lovelace"). */
  label: string;
  actions: readonly RowAction[];
  /** Words on the button ("More"); none: "⋯" alone. */
  text?: ReactNode;
  className?: string;
}) {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLUListElement>(null);
  const items = () => [...(menu.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];
  useEffect(() => {
    if (!open) return;
    items()[0]?.focus();
    const onPointer = (event: PointerEvent) => {
      if (!menu.current?.contains(event.target as Node) && event.target !== button.current) {
        setOpen(false);
      }
    };
    document.addEventListener('pointerdown', onPointer);
    return () => document.removeEventListener('pointerdown', onPointer);
  }, [open]);
  const close = () => {
    setOpen(false);
    button.current?.focus();
  };
  // The focus is back on the button first, so a dialog the action opens returns it there.
  const run = (action: RowAction) => {
    close();
    action.run();
  };
  const onKeyDown = (event: KeyboardEvent) => {
    const all = items();
    const at = all.indexOf(document.activeElement as HTMLElement);
    const to = rovingTarget(event.key, at, all.length);
    if (to !== undefined) {
      event.preventDefault();
      all[to]?.focus();
    } else if (event.key === 'Escape' || event.key === 'Tab') {
      event.preventDefault();
      event.stopPropagation();
      close();
    }
  };
  return (
    <div className={className ? `row-menu ${className}` : 'row-menu'}>
      <button
        ref={button}
        type="button"
        className={text ? 'row-menu-button with-text' : 'row-menu-button'}
        aria-label={label}
        aria-haspopup="menu"
        aria-expanded={open}
        onClick={() => setOpen((current) => !current)}
        onKeyDown={(event) => {
          if (event.key === 'ArrowDown' && !open) {
            event.preventDefault();
            setOpen(true);
          }
        }}
      >
        {text ? <span>{text}</span> : null}
        <Icon name="more" />
      </button>
      {open ? (
        <ul
          ref={menu}
          role="menu"
          aria-label={label}
          className="row-menu-list"
          onKeyDown={onKeyDown}
        >
          {actions.map((action) => (
            <li
              key={action.label}
              role="menuitem"
              tabIndex={-1}
              className={
                [action.danger ? 'danger' : '', action.apart ? 'apart' : ''].join(' ').trim() ||
                undefined
              }
              onClick={() => run(action)}
              onKeyDown={(event) => {
                if (event.key === 'Enter' || event.key === ' ') {
                  event.preventDefault();
                  run(action);
                }
              }}
            >
              {action.label}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
