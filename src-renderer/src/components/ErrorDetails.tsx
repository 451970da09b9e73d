import { useTranslation } from '../i18n';

/**
 * What only someone looking into a failure needs (the request, the HTTP status: ErrorInfo's
 * `details`), behind a "Details" disclosure under the sentence a person reads.
 */
export function ErrorDetails({ details }: { details: string | undefined }) {
  const { t } = useTranslation();
  if (!details) return null;
  return (
    <details className="error-details" data-testid="error-details">
      <summary>{t('common.details')}</summary>
      <code>{details}</code>
    </details>
  );
}
