/**
 * What only someone looking into a failure needs (the request, the HTTP status: ErrorInfo's
 * `details`), behind a "Details" disclosure under the sentence a person reads.
 */
export function ErrorDetails({ details }: { details: string | undefined }) {
  if (!details) return null;
  return (
    <details className="error-details" data-testid="error-details">
      <summary>Details</summary>
      <code>{details}</code>
    </details>
  );
}
