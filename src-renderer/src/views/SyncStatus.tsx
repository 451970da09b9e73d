import { memo } from 'react';
import { useAppStore } from '../store/app-store';
import { useLocale } from '../hooks/use-locale';
import { ErrorDetails } from '../components/ErrorDetails';
import { formatTime } from './format-time';
import { CoreText } from '../components/CoreText';

/**
 * One line about the local contact index: loading, how many, how fresh, what went wrong. Memoised:
 * it follows the store, not the search view it sits in (which re-renders with each answer).
 */
export const SyncStatus = memo(function SyncStatus() {
  const { t, locale } = useLocale();
  const directory = useAppStore((state) => state.directory);
  const error = useAppStore((state) => state.directoryError);
  const offline = useAppStore((state) => state.account?.state === 'offline');
  // Loading needs the platform: offered only while connected.
  const canSync = useAppStore((state) => state.account?.state === 'connected');
  const sync = useAppStore((state) => state.syncDirectory);
  if (error) {
    return (
      <p className="sync-status error" data-testid="sync-status">
        <CoreText>{error.message}</CoreText>
      </p>
    );
  }
  if (!directory) return null;
  const count = directory.contacts;
  switch (directory.state) {
    case 'empty':
      return (
        <p className="sync-status" data-testid="sync-status" data-state="empty">
          {t('sync.empty')}{' '}
          {canSync ? (
            <button type="button" onClick={() => void sync()}>
              {t('sync.load')}
            </button>
          ) : null}
        </p>
      );
    case 'syncing': {
      const progress = directory.progress;
      const total = progress?.contacts_total;
      return (
        <div className="sync-status" data-testid="sync-status" data-state="syncing">
          {/*
           * Said once per stage (loading, then checking), not again with every page: the count
           * beside it is for the eye (a screen reader has the progress bar's value).
           */}
          <span role="status">
            {progress?.checking ? t('sync.checking', { count }) : t('sync.loading')}
          </span>
          {progress?.checking ? null : (
            <span data-testid="sync-count">
              {total
                ? t('sync.loadingOf', { count: progress?.contacts ?? count, total })
                : t('sync.loadingCount', { count: progress?.contacts ?? count })}
            </span>
          )}
          <progress
            aria-label={t('sync.loadingLabel')}
            max={total && !progress?.checking ? total : undefined}
            value={
              total && !progress?.checking ? Math.min(progress?.contacts ?? 0, total) : undefined
            }
          />
        </div>
      );
    }
    case 'ready':
      return (
        <p className="sync-status" data-testid="sync-status" data-state="ready">
          {directory.synced_at
            ? t('sync.readyUpdated', {
                count,
                time: formatTime(directory.synced_at, locale),
              })
            : t('sync.ready', { count })}{' '}
          {canSync ? (
            <button type="button" onClick={() => void sync()}>
              {t('sync.refresh')}
            </button>
          ) : null}
        </p>
      );
    case 'stale':
      return (
        <div className="sync-status warning" data-testid="sync-status" data-state="stale">
          {t(offline ? 'sync.staleOffline' : 'sync.stale', {
            count,
            when: directory.synced_at
              ? formatTime(directory.synced_at, locale)
              : t('sync.earlierSync'),
            // A sentence in brackets before the line's own full stop: its own stop goes.
            why: directory.last_error?.replace(/\.$/, '') ?? 'none',
          })}{' '}
          {canSync ? (
            <button type="button" onClick={() => void sync()}>
              {t('sync.refreshNow')}
            </button>
          ) : null}
          <ErrorDetails details={directory.last_error_details} />
        </div>
      );
  }
});
