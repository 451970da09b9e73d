/**
 * The three addresses an administrator registers with the platform for a relay authenticated by
 * its secret (docs/relay.md): each ends in the secret; the Webhook URL names the tenant, for the
 * events that name nobody (`?tenant=`).
 */
export function relayAddresses(
  origin: string | { activate: string; deactivate: string; events: string },
  secret: string,
  tenant?: string,
): { activation_url: string; deactivation_url: string; webhook_url: string } {
  const at =
    typeof origin === 'string' ? { activate: origin, deactivate: origin, events: origin } : origin;
  const query = tenant === undefined ? '' : `?tenant=${encodeURIComponent(tenant)}`;
  return {
    activation_url: `${at.activate}/activate/${secret}`,
    deactivation_url: `${at.deactivate}/deactivate/${secret}`,
    webhook_url: `${at.events}/events/${secret}${query}`,
  };
}
