import { useEffect, useRef, useState } from 'react';
import type { Call } from '../../../src-shared/contract';
import { useAppStore } from '../store/app-store';
import { useLocale } from '../hooks/use-locale';
import { Icon } from '../components/Icon';
import { Party } from '../components/Isolated';
import { CallCard, PartyDetail } from './CallBar';
import { callStateWords, partyName } from './call-words';
import { CallNoteEditor } from './LazyNoteEditor';
import { formatDuration } from './format-time';
import { talkTime } from './recent-groups';

/**
 * How long the ended call stays in view. Longer than a glance ("a few seconds", as phones show
 * "Call ended"), and it waits while the pointer or the focus is on it or a note is being written
 * (WCAG 2.2.1: nobody loses what they were using to a timer).
 */
export const ENDED_VISIBLE_MS = 6000;

/** The call that just ended: "Ended · 0:12" (or why it failed), Call again, Add note, Close. */
export function EndedCall({ call }: { call: Call }) {
  const { t, locale } = useLocale();
  const dismiss = useAppStore((state) => state.dismissEnded);
  const dial = useAppStore((state) => state.dial);
  const [noting, setNoting] = useState(false);
  const card = useRef<HTMLDivElement>(null);
  // It goes once its seconds passed with neither the pointer nor the focus on it, nor a note
  // being written; until then it waits another while.
  useEffect(() => {
    if (noting) return;
    let timer: ReturnType<typeof setTimeout>;
    const wait = () => {
      timer = setTimeout(() => {
        const element = card.current;
        const held = element?.matches(':hover') || element?.contains(document.activeElement);
        if (held) wait();
        else dismiss();
      }, ENDED_VISIBLE_MS);
    };
    wait();
    return () => clearTimeout(timer);
  }, [noting, dismiss, call.id]);
  const talked = talkTime(call);
  const name = partyName(call.party);
  const summary =
    call.state === 'failed'
      ? callStateWords(call)
      : talked === undefined
        ? t('callEnded.ended')
        : t('callEnded.endedAfter', { duration: formatDuration(talked, locale) });
  return (
    <div ref={card}>
      <CallCard
        state={call.state}
        label={t('callEnded.label')}
        testId="call-ended"
        avatar={call.party.name ?? ''}
        who={<Party party={call.party} whole />}
        detail={<PartyDetail call={call} />}
        chip={summary}
        action={
          <>
            {call.party.number ? (
              <button
                type="button"
                aria-label={t('recent.callAgainName', { name })}
                onClick={() => void dial(call.party.number, 'ui', name)}
              >
                <Icon name="phone" />
                {t('recent.callAgain')}
              </button>
            ) : null}
            {noting ? null : (
              <button
                type="button"
                data-note-opener
                aria-label={
                  call.note ? t('recent.editNoteName', { name }) : t('recent.addNoteName', { name })
                }
                onClick={() => setNoting(true)}
              >
                {call.note ? t('recent.editNote') : t('recent.addNote')}
              </button>
            )}
            <button
              type="button"
              className="plain icon-only"
              aria-label={t('common.close')}
              onClick={dismiss}
            >
              <Icon name="close" />
            </button>
          </>
        }
      >
        {call.state !== 'failed' && call.reason ? (
          <p className="call-note" data-testid="call-ended-reason">
            {call.reason}
          </p>
        ) : null}
        {noting ? <CallNoteEditor call={call} onDone={() => setNoting(false)} /> : null}
      </CallCard>
    </div>
  );
}
