/** The page the browser lands on after the portal (the redirect_url), served by the receiver. */
export interface LandingPage {
  ok: boolean;
  title: string;
  message: string;
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
