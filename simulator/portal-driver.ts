/**
 * Drives the portal's real HTML forms without a browser: follows the activation link (and the
 * login redirect) with a cookie jar, signs in through the login form, then submits the consent
 * form whose button says Subscribe or Unsubscribe, and returns that POST's answer without
 * following its redirect (303 → redirect_url on success).
 */
export interface PortalFlowOptions {
  username: string;
  password: string;
  action: 'subscribe' | 'unsubscribe';
}

export interface PortalFlowResult {
  status: number;
  location?: string;
  body: string;
}

interface HtmlForm {
  action: string;
  method: string;
  inputs: { name: string; value: string; type: string }[];
  buttons: { name: string | undefined; value: string; text: string }[];
}

class CookieJar {
  private readonly cookies = new Map<string, string>();

  store(response: Response): void {
    for (const header of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = header.split(';');
      const eq = pair.indexOf('=');
      if (eq <= 0) continue;
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const expired = attributes.some((attribute) => /^\s*max-age\s*=\s*0\s*$/i.test(attribute));
      if (expired || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
}

function decodeEntities(text: string): string {
  return text
    .replace(/&#(\d+);/g, (_, code: string) => String.fromCodePoint(Number(code)))
    .replace(/&#x([0-9a-f]+);/gi, (_, code: string) => String.fromCodePoint(parseInt(code, 16)))
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

function attributes(tag: string): Record<string, string> {
  const result: Record<string, string> = {};
  for (const match of tag.matchAll(
    /([a-zA-Z_:][-a-zA-Z0-9_:.]*)(?:\s*=\s*("([^"]*)"|'([^']*)'|([^\s"'>]+)))?/g,
  )) {
    const name = match[1]?.toLowerCase();
    if (!name) continue;
    result[name] = decodeEntities(match[3] ?? match[4] ?? match[5] ?? '');
  }
  return result;
}

function parseForms(html: string): HtmlForm[] {
  const forms: HtmlForm[] = [];
  for (const match of html.matchAll(/<form\b([^>]*)>([\s\S]*?)<\/form>/gi)) {
    const formAttributes = attributes(match[1] ?? '');
    const inner = match[2] ?? '';
    const inputs = [...inner.matchAll(/<input\b([^>]*)>/gi)].map((input) => {
      const attrs = attributes(input[1] ?? '');
      return {
        name: attrs.name ?? '',
        value: attrs.value ?? '',
        type: (attrs.type ?? 'text').toLowerCase(),
      };
    });
    const buttons = [...inner.matchAll(/<button\b([^>]*)>([\s\S]*?)<\/button>/gi)].map((button) => {
      const attrs = attributes(button[1] ?? '');
      const text = decodeEntities((button[2] ?? '').replace(/<[^>]*>/g, '')).trim();
      return { name: attrs.name, value: attrs.value ?? '', text };
    });
    forms.push({
      action: formAttributes.action ?? '',
      method: (formAttributes.method ?? 'get').toLowerCase(),
      inputs,
      buttons,
    });
  }
  return forms;
}

async function snapshot(response: Response): Promise<PortalFlowResult> {
  const location = response.headers.get('location');
  return {
    status: response.status,
    ...(location ? { location } : {}),
    body: await response.text(),
  };
}

export async function completePortalFlow(
  portalLink: string,
  options: PortalFlowOptions,
): Promise<PortalFlowResult> {
  const jar = new CookieJar();
  const origin = new URL(portalLink).origin;

  const request = async (url: string, init: RequestInit = {}): Promise<Response> => {
    const headers = new Headers(init.headers);
    const cookie = jar.header();
    if (cookie) headers.set('cookie', cookie);
    const response = await fetch(url, { ...init, headers, redirect: 'manual' });
    jar.store(response);
    return response;
  };

  /** GETs a page, following same-origin redirects. */
  const open = async (start: string): Promise<{ url: string; response: Response }> => {
    let url = start;
    let response = await request(url);
    for (let hops = 0; hops < 5 && response.status >= 300 && response.status < 400; hops++) {
      const location = response.headers.get('location');
      if (!location) break;
      const next = new URL(location, url);
      if (next.origin !== origin) break;
      await response.arrayBuffer();
      url = next.toString();
      response = await request(url);
    }
    return { url, response };
  };

  const submit = (url: string, form: HtmlForm, extra: Record<string, string>) => {
    const fields = new URLSearchParams();
    for (const input of form.inputs) {
      if (input.name && input.type !== 'submit') fields.append(input.name, input.value);
    }
    for (const [name, value] of Object.entries(extra)) fields.set(name, value);
    return request(new URL(form.action || url, url).toString(), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: fields.toString(),
    });
  };

  let { url, response } = await open(portalLink);
  if (response.status !== 200) return snapshot(response);
  let html = await response.text();

  const loginForm = parseForms(html).find((form) =>
    form.inputs.some((input) => input.name === 'password'),
  );
  if (loginForm) {
    const login = await submit(url, loginForm, {
      username: options.username,
      password: options.password,
    });
    const location = login.headers.get('location');
    if (login.status < 300 || login.status >= 400 || !location) return snapshot(login);
    await login.arrayBuffer();
    ({ url, response } = await open(new URL(location, url).toString()));
    if (response.status !== 200) return snapshot(response);
    html = await response.text();
  }

  const label = options.action === 'subscribe' ? 'subscribe' : 'unsubscribe';
  for (const form of parseForms(html)) {
    const button = form.buttons.find((candidate) => candidate.text.toLowerCase() === label);
    if (!button) continue;
    const posted = await submit(url, form, button.name ? { [button.name]: button.value } : {});
    return snapshot(posted);
  }
  throw new Error(`The portal page at ${url} has no "${label}" button.`);
}
