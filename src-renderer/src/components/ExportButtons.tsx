import { useTranslation } from '../i18n';
import type { ExportRequest } from '../../../src-shared/contract';
import { useExportDownload } from '../hooks/use-export-download';

/**
 * Export buttons, one per format offered ("Export CSV", "Export vCard"), with progress while the
 * export is read and its failure said beside them.
 */
export function ExportButtons({
  requests,
}: {
  requests: readonly { label: string; request: ExportRequest }[];
}) {
  const { t } = useTranslation();
  const { busy, error, save } = useExportDownload();
  return (
    <span className="export-buttons">
      {requests.map(({ label, request }) => (
        <button
          key={label}
          type="button"
          disabled={busy !== undefined}
          onClick={() => void save(request)}
        >
          {label}
        </button>
      ))}
      {busy ? (
        <span role="status" data-testid="export-progress">
          {t('export.progress', { items: busy.items })}
        </span>
      ) : null}
      {error ? (
        <span role="alert" className="error" data-testid="export-error">
          {error}
        </span>
      ) : null}
    </span>
  );
}
