import { CallbarError } from '../errors';
import { directoryUrl } from '../http/directory-url';
import { said } from '../text/said';

export interface PortalLinkInput {
  portalUrl: string;
  slug: string;
  confirmationKey: string;
  redirectUrl: string;
  /** Extra tenant metadata, sent as tenant_{name}; "id" is never sent (the platform ignores it). */
  tenantParams?: Record<string, string>;
}

const PARAM_NAME = /^[a-z0-9_]+$/i;

/** `{portal_url}/integrations/{slug}/activate?confirmation_key=…&tenant_…=…&redirect_url=…` */
export function buildPortalLink(input: PortalLinkInput): string {
  const url = new URL(
    `integrations/${encodeURIComponent(input.slug)}/activate`,
    directoryUrl(input.portalUrl),
  );
  url.searchParams.set('confirmation_key', input.confirmationKey);
  for (const [name, value] of Object.entries(input.tenantParams ?? {})) {
    if (!PARAM_NAME.test(name)) {
      throw new CallbarError(
        'invalid_tenant_param',
        said('errors:account.tenantParamName', { name }),
        { field: 'tenant_params' },
      );
    }
    if (name.toLowerCase() === 'id') continue;
    url.searchParams.set(`tenant_${name}`, value);
  }
  url.searchParams.set('redirect_url', input.redirectUrl);
  return url.toString();
}
