import type { ReactNode, Ref } from 'react';
import { useTranslation } from '../i18n';
import { useEscapeBack } from '../hooks/use-escape-back';
import { Icon } from './Icon';

/**
 * The top of every screen but the search: the one Back control (at the start of the line, on
 * every screen the same, named for where it goes), the screen's heading (it takes the focus on
 * arrival), and the screen's main action at the end of its line, or on a line below when the
 * heading does not fit beside it. Esc does what Back does.
 */
export function ScreenHeader({
  titleId,
  title,
  headingRef,
  back,
  action,
}: {
  titleId: string;
  title: ReactNode;
  headingRef?: Ref<HTMLHeadingElement>;
  /** Where Back goes: its words ("Search", "Phonebooks") and what it does. */
  back: { to: string; onClick: () => void };
  action?: ReactNode;
}) {
  const { t } = useTranslation();
  useEscapeBack(back.onClick);
  return (
    <div className="screen-header">
      <button
        type="button"
        className="back"
        aria-label={t('common.backTo', { to: back.to })}
        data-testid="back"
        onClick={back.onClick}
      >
        <Icon name="back" className="flip-rtl" />
        <span className="back-to">{back.to}</span>
      </button>
      {/* The heading and the action share a line while the heading fits on it whole; else the
          action takes a line of its own (a short word never breaks beside it). */}
      <div className="screen-header-main">
        <h1 id={titleId} ref={headingRef} tabIndex={-1}>
          {title}
        </h1>
        {action ? <div className="screen-header-action">{action}</div> : null}
      </div>
    </div>
  );
}
