import { useTranslation } from '../i18n';

/** How far an export is (useExportDownload's `busy`): the items so far; nothing when none runs. */
export function ExportProgress({ busy }: { busy: { items: number } | undefined }) {
  const { t } = useTranslation();
  return busy ? (
    <p role="status" className="hint small" data-testid="export-progress">
      {t('export.progress', { items: busy.items })}
    </p>
  ) : null;
}
