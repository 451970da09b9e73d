/**
 * The portal's HTML: plain, semantic pages (labelled inputs, buttons named Sign in, Subscribe,
 * Unsubscribe) that a person, the fetch-based portal driver and a Playwright test can all use.
 */
export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem;color:#1d2330}
h1{font-size:1.5rem}form{margin:1rem 0}label{display:block;margin:.5rem 0 .2rem}
input{font:inherit;padding:.3rem .5rem;width:18rem}button{font:inherit;padding:.4rem 1.2rem;margin-right:.5rem}
.error{color:#a11;border-left:3px solid #a11;padding-left:.6rem}pre{white-space:pre-wrap;background:#f3f4f6;padding:.6rem}
.muted{color:#5b6475}`;

export function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} — Platform portal (simulator)</title>
<style>${STYLE}</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;
}

function csrfInput(csrf: string): string {
  return `<input type="hidden" name="csrfmiddlewaretoken" value="${escapeHtml(csrf)}">`;
}

export function loginPage(options: { next: string; csrf: string; error?: string }): string {
  return page(
    'Sign in',
    `<h1>Sign in to the platform portal</h1>
${options.error ? `<p class="error" role="alert">${escapeHtml(options.error)}</p>` : ''}
<form method="post" action="/portal/login/">
${csrfInput(options.csrf)}
<input type="hidden" name="next" value="${escapeHtml(options.next)}">
<label for="username">Username</label>
<input id="username" name="username" autocomplete="username" required>
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required>
<p><button type="submit">Sign in</button></p>
</form>`,
  );
}

export interface ConsentView {
  slug: string;
  action: string;
  csrf: string;
  fullName: string;
  username: string;
  extension: string;
  tenantId: string;
  state: 'not integrated' | 'active' | 'deactivated';
}

export function consentPage(view: ConsentView): string {
  const action = escapeHtml(view.action);
  const stateText =
    view.state === 'active'
      ? 'This integration is active for you.'
      : view.state === 'deactivated'
        ? 'This integration was deactivated for you.'
        : 'This integration is not active for you yet.';
  return page(
    `Integration ${view.slug}`,
    `<h1>Integration “${escapeHtml(view.slug)}”</h1>
<p>Signed in as <strong>${escapeHtml(view.fullName)}</strong> (${escapeHtml(view.username)}, extension ${escapeHtml(view.extension)}, tenant ${escapeHtml(view.tenantId)}).</p>
<p>Subscribing lets <strong>${escapeHtml(view.slug)}</strong> manage your phonebooks and contacts and place and end calls on your behalf, and receive your call events.</p>
<p class="muted" data-state="${escapeHtml(view.state)}">${stateText}</p>
<form method="post" action="${action}" aria-label="Subscribe">
${csrfInput(view.csrf)}
<button type="submit" name="action" value="subscribe">Subscribe</button>
</form>
<form method="post" action="${action}" aria-label="Unsubscribe">
${csrfInput(view.csrf)}
<button type="submit" name="action" value="unsubscribe">Unsubscribe</button>
</form>
<form method="post" action="/portal/logout/">
${csrfInput(view.csrf)}
<button type="submit">Sign out</button>
</form>`,
  );
}

export function messagePage(title: string, message: string, detail?: string): string {
  return page(
    title,
    `<h1>${escapeHtml(title)}</h1>
<p class="error" role="alert">${escapeHtml(message)}</p>
${detail ? `<pre>${escapeHtml(detail)}</pre>` : ''}`,
  );
}
