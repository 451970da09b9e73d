import { useAppStore } from '../store/app-store';
import { ErrorDetails } from '../components/ErrorDetails';
import { formatTime } from './format-time';

/** One line about the local contact index: loading, how many, how fresh, what went wrong. */
export function SyncStatus() {
  const directory = useAppStore((state) => state.directory);
  const error = useAppStore((state) => state.directoryError);
  const offline = useAppStore((state) => state.account?.state === 'offline');
  // Loading needs the platform: offered only while connected.
  const canSync = useAppStore((state) => state.account?.state === 'connected');
  const sync = useAppStore((state) => state.syncDirectory);
  if (error) {
    return (
      <p className="sync-status error" data-testid="sync-status">
        {error.message}
      </p>
    );
  }
  if (!directory) return null;
  const count = directory.contacts.toLocaleString();
  switch (directory.state) {
    case 'empty':
      return (
        <p className="sync-status" data-testid="sync-status" data-state="empty">
          No contacts loaded yet.{' '}
          {canSync ? (
            <button type="button" className="link" onClick={() => void sync()}>
              Load contacts
            </button>
          ) : null}
        </p>
      );
    case 'syncing': {
      const progress = directory.progress;
      const total = progress?.contacts_total;
      return (
        <div className="sync-status" data-testid="sync-status" data-state="syncing">
          <span role="status">
            Loading your contacts… {progress ? progress.contacts.toLocaleString() : count}
            {total ? ` of ${total.toLocaleString()}` : ''}
          </span>
          <progress
            aria-label="Loading your contacts"
            max={total ?? undefined}
            value={total ? Math.min(progress?.contacts ?? 0, total) : undefined}
          />
        </div>
      );
    }
    case 'ready':
      return (
        <p className="sync-status" data-testid="sync-status" data-state="ready">
          {count} contacts
          {directory.synced_at ? ` · updated ${formatTime(directory.synced_at)}` : ''}{' '}
          {canSync ? (
            <button type="button" className="link" onClick={() => void sync()}>
              Refresh
            </button>
          ) : null}
        </p>
      );
    case 'stale':
      return (
        <div className="sync-status warning" data-testid="sync-status" data-state="stale">
          {offline ? 'Offline: ' : ''}
          {count} contacts from{' '}
          {directory.synced_at ? formatTime(directory.synced_at) : 'an earlier sync'}
          {directory.last_error ? ` (${directory.last_error})` : ''}.{' '}
          {canSync ? (
            <button type="button" className="link" onClick={() => void sync()}>
              Refresh now
            </button>
          ) : null}
          <ErrorDetails details={directory.last_error_details} />
        </div>
      );
  }
}
