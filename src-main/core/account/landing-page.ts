/** The page the browser lands on after the portal (the redirect_url), served by the receiver. */
import type { AttemptOutcome } from './activation-attempts';

export interface LandingPage {
  ok: boolean;
  title: string;
  message: string;
}

/** What the landing page says for an attempt's outcome (undefined: an attempt Callbar does not know). */
export function landingPageFor(outcome: AttemptOutcome | undefined): LandingPage {
  switch (outcome?.kind) {
    case 'connected':
      return {
        ok: true,
        title: 'Connected — you can close this tab',
        message: `Callbar is connected to extension ${outcome.user_extension} (${outcome.tenant_id}).`,
      };
    case 'disconnected':
      return {
        ok: true,
        title: 'Callbar is disconnected from this computer',
        message:
          'You unsubscribed in the portal: Callbar no longer has access to your phone account here. You can close this tab.',
      };
    case 'failed':
      return { ok: false, title: 'Callbar is not connected', message: outcome.message };
    case 'pending':
    case 'claimed':
      return {
        ok: false,
        title: 'Callbar has not received the confirmation',
        message:
          'The portal did not complete the handshake with Callbar. If the portal showed an error, start connecting again from Callbar.',
      };
    case undefined:
      return {
        ok: false,
        title: 'Unknown connection attempt',
        message:
          'This page belongs to a connection attempt that this Callbar does not know (it expired, or Callbar restarted). Start connecting again from Callbar.',
      };
  }
}

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function renderLandingPage(page: LandingPage): string {
  const color = page.ok ? '#1a7f37' : '#cf222e';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Callbar — ${escape(page.title)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;display:grid;place-items:center;min-height:90vh;margin:0}
main{max-width:32rem;padding:2rem;text-align:center}
h1{color:${color};font-size:1.6rem}
p{color:#57606a;line-height:1.5}
</style></head>
<body><main><h1>${escape(page.title)}</h1><p>${escape(page.message)}</p></main></body></html>`;
}
