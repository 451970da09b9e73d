import { useEffect, useRef, useState } from 'react';
import { useTranslation } from '../i18n';
import type { DialTarget } from '../../../src-shared/contract';
import type { Locale } from '../../../src-shared/i18n';
import { countryLabel } from '../components/CountryPicker';
import { Message } from '../components/Message';
import { useAppStore } from '../store/app-store';
import { Name, PhoneNumber } from '../components/Isolated';
import { DialogActions } from '../components/DialogActions';
import { Modal } from '../components/Modal';
import { shownText } from './shown-text';
import { CoreAlert } from '../components/CoreText';
import { SEPARATOR } from '../components/separator';

/**
 * What will be dialled, apart from any label or contact name: the class, the country and the
 * exact digits (E.164 for outside numbers), always left-to-right and isolated from the text
 * around them, so a name with bidi controls cannot reorder them.
 */
function DestinationFacts({ target }: { target: DialTarget }) {
  const { t, i18n } = useTranslation();
  return (
    <dl className="pending-facts">
      <dt>{t('pending.kind')}</dt>
      <dd data-testid="pending-class" data-class={target.class}>
        {t(`pending.class.${target.class}`)}
      </dd>
      {target.country ? (
        <>
          <dt>{t('pending.country')}</dt>
          <dd data-testid="pending-country">
            {countryLabel(target.country, i18n.language as Locale)}
          </dd>
        </>
      ) : null}
      <dt>{t('pending.dials')}</dt>
      <dd>
        <bdi dir="ltr" className="pending-digits" data-testid="pending-digits">
          {shownText(target.e164 ?? target.destination)}
        </bdi>
      </dd>
    </dl>
  );
}

/**
 * The link as it came, broken only where a person would: on a line of its own where it fits one,
 * otherwise between its parts, never inside a digit group ("tel:+1202555014" and "7" at 420 px
 * in German), unless one group is longer than a whole line.
 */
function LinkText({ link }: { link: string }) {
  return (
    <code className="pending-link" dir="ltr">
      {link.split(/(\+?\d+)/).map((part, at) =>
        at % 2 === 1 ? (
          <span key={at} className="pending-link-digits">
            {part}
          </span>
        ) : (
          part
        ),
      )}
    </code>
  );
}

/**
 * How long Dial stays off once the dialog shows a dial, also one that replaced another: a link
 * that arrives just before a click (a page or program firing a second tel: link as the person
 * reaches for Dial on the first) must not take that click. Cancel works at once.
 */
const ANSWER_DELAY_MS = 1000;

/** "Dial this number?" for a dial that core holds until the user says yes (a tel: link). */
export function PendingDialDialog() {
  const pending = useAppStore((state) => state.calls.pending);
  if (!pending) return null;
  // A new pending dial is a new dialog (fresh checkbox, focus moved again).
  return <PendingDial key={pending.id} />;
}

function PendingDial() {
  const { t } = useTranslation();
  const pending = useAppStore((state) => state.calls.pending)!;
  const confirm = useAppStore((state) => state.confirmPending);
  const error = useAppStore((state) => state.callError);
  const [always, setAlways] = useState(false);
  const [busy, setBusy] = useState(false);
  // Each pending dial is a dialog of its own (keyed by its id): the delay starts again on a swap.
  const [ready, setReady] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setReady(true), ANSWER_DELAY_MS);
    return () => clearTimeout(timer);
  }, []);
  // One answer per dialog: a second Esc while the first is on its way sends nothing.
  const answered = useRef(false);
  const answer = async (accept: boolean) => {
    if (answered.current || (accept && !ready)) return;
    answered.current = true;
    setBusy(true);
    await confirm(accept, accept && always);
    answered.current = false;
    setBusy(false);
  };
  const { target } = pending;
  return (
    <Modal titleId="pending-title" onCancel={() => void answer(false)}>
      <h2 id="pending-title">
        <Message
          id="pending.title"
          values={{
            who: target.contact ? (
              <Name>{target.contact.display_name}</Name>
            ) : (
              <PhoneNumber>{target.display}</PhoneNumber>
            ),
          }}
        />
      </h2>
      <p className="pending-number" data-testid="pending-number">
        <PhoneNumber>{target.display}</PhoneNumber>
        {target.contact?.company ? (
          <>
            {SEPARATOR}
            <Name>{target.contact.company}</Name>
          </>
        ) : null}
      </p>
      <DestinationFacts target={target} />
      <p
        className={pending.reason ? 'pending-reason warning' : 'hint'}
        data-testid="pending-description"
      >
        {pending.reason ?? target.description}
      </p>
      {target.note ? (
        <p className="pending-reason warning" data-testid="pending-note">
          {shownText(target.note)}
        </p>
      ) : null}
      <p className="hint">
        {pending.link ? (
          <Message
            id="pending.askedByLink"
            values={{
              source: t(`pending.source.${pending.source}`),
              link: <LinkText link={pending.link} />,
            }}
          />
        ) : (
          t('pending.askedBy', { source: t(`pending.source.${pending.source}`) })
        )}
      </p>
      <p className="hint">{t('pending.ringsFirst')}</p>
      {/* A link that asks for a reason keeps asking: "always" would not apply to it. */}
      {pending.source === 'tel-link' && !pending.reason ? (
        <label className="check">
          <input
            type="checkbox"
            checked={always}
            onChange={(event) => setAlways(event.target.checked)}
          />
          {t('pending.always')}
        </label>
      ) : null}
      <CoreAlert text={error?.message} />
      <DialogActions
        cancel={
          // Cancel has the focus: a link may arrive while you are typing and pressing Enter.
          <button type="button" data-autofocus disabled={busy} onClick={() => void answer(false)}>
            {t('common.cancel')}
          </button>
        }
        main={
          <button
            type="button"
            className="primary"
            disabled={busy || !ready}
            onClick={() => void answer(true)}
          >
            {t('pending.dial')}
          </button>
        }
      />
    </Modal>
  );
}
