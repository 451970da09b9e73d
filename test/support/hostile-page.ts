/**
 * A hostile web page for the browser attacks on Callbar's loopback servers: a plain Node server
 * on another loopback origin serving an empty page, the attacks that page runs (fetch with and
 * without CORS, JSON and form bodies, a self-submitting form, <img>, <iframe>), and a record of
 * what the browser's network layer saw come back (the page itself may see nothing).
 */
import { expect, type Page, type Response } from '@playwright/test';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The hostile page: nothing but a frame for forms to land in. */
export const HOSTILE_HTML =
  '<!doctype html><html><head><title>Win a prize</title></head><body><iframe name="sink"></iframe></body></html>';

export interface HostileSite {
  /** e.g. http://127.0.0.2:40123 */
  origin: string;
  close(): Promise<void>;
}

/** Serves the hostile page on `address` (any 127/8 address; Linux routes them all to lo). */
export async function startHostileSite(address: string): Promise<HostileSite> {
  const server: Server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(HOSTILE_HTML);
  });
  await new Promise<void>((ready, fail) => {
    server.once('error', fail);
    server.listen(0, address, ready);
  });
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://${address}:${port}`,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

export type Body = { type: 'json' | 'form'; fields: Record<string, string> };

/** One request a web page can make to another origin. */
export type Attack =
  | { kind: 'fetch'; url: string; method: 'GET' | 'POST'; mode: 'cors' | 'no-cors'; body?: Body }
  /** A <form method=POST> submitted by script into the page's own frame. */
  | { kind: 'form'; url: string; fields: Record<string, string> }
  | { kind: 'img'; url: string }
  | { kind: 'iframe'; url: string };

/** What the page could learn: a readable status and text, or nothing (an error or opaque answer). */
export interface PageView {
  readable: boolean;
  status: number;
  text: string;
  note: string;
}

export function describeAttack(attack: Attack): string {
  const path = new URL(attack.url).pathname.replace(/\/connect\/.+/, '/connect/…');
  const target = `${new URL(attack.url).host}${path}`;
  if (attack.kind === 'fetch') {
    return `fetch ${attack.mode} ${attack.method}${attack.body ? ` ${attack.body.type}` : ''} ${target}`;
  }
  return `${attack.kind} ${target}`;
}

/** Runs one attack inside the page (its origin is the requests' Origin) and says what it saw. */
export function runInPage(page: Page, attack: Attack): Promise<PageView> {
  return page.evaluate(async (attack: Attack): Promise<PageView> => {
    const waitFor = (element: HTMLElement, events: string[]) =>
      new Promise<string>((resolve) => {
        for (const name of events) element.addEventListener(name, () => resolve(name));
        setTimeout(() => resolve('timeout'), 20_000);
      });
    const nothing = (note: string): PageView => ({ readable: false, status: 0, text: '', note });
    if (attack.kind === 'fetch') {
      const init: RequestInit = {
        method: attack.method,
        mode: attack.mode,
        credentials: 'include',
      };
      if (attack.body?.type === 'json') {
        init.headers = { 'content-type': 'application/json' };
        init.body = JSON.stringify(attack.body.fields);
      } else if (attack.body?.type === 'form') {
        init.body = new URLSearchParams(attack.body.fields);
      }
      try {
        const response = await fetch(attack.url, init);
        if (response.type === 'opaque') return nothing('opaque');
        return {
          readable: true,
          status: response.status,
          text: await response.text(),
          note: response.type,
        };
      } catch (error) {
        return nothing(String(error));
      }
    }
    if (attack.kind === 'img') {
      const image = document.createElement('img');
      const settled = waitFor(image, ['load', 'error']);
      image.src = attack.url;
      document.body.append(image);
      return nothing(await settled);
    }
    if (attack.kind === 'iframe') {
      const frame = document.createElement('iframe');
      const settled = waitFor(frame, ['load', 'error']);
      frame.src = attack.url;
      document.body.append(frame);
      const how = await settled;
      try {
        return {
          readable: true,
          status: 0,
          text: frame.contentDocument!.body.innerText,
          note: how,
        };
      } catch (error) {
        return nothing(`${how}: ${String(error)}`);
      }
    }
    const sink = document.querySelector<HTMLIFrameElement>('iframe[name=sink]')!;
    const settled = waitFor(sink, ['load']);
    const form = document.createElement('form');
    form.method = 'POST';
    form.action = attack.url;
    form.target = 'sink';
    for (const [name, value] of Object.entries(attack.fields)) {
      const input = document.createElement('input');
      input.type = 'hidden';
      input.name = name;
      input.value = value;
      form.append(input);
    }
    document.body.append(form);
    form.submit();
    const how = await settled;
    try {
      return { readable: true, status: 0, text: sink.contentDocument!.body.innerText, note: how };
    } catch (error) {
      return nothing(`${how}: ${String(error)}`);
    }
  }, attack);
}

/**
 * The statuses Callbar's servers answered, as the browser's network layer saw them (the page may
 * only get an opaque answer or an error): every response from `origins`' ports, in order.
 */
export function networkStatuses(page: Page, ports: number[]) {
  const seen: { url: string; status: number }[] = [];
  const onResponse = (response: Response) => {
    const url = new URL(response.url());
    if (ports.includes(Number(url.port)))
      seen.push({ url: response.url(), status: response.status() });
  };
  page.on('response', onResponse);
  return {
    seen,
    /** Everything seen since `from`, once the responses for `count` requests arrived. */
    async since(from: number, count: number) {
      await expect
        .poll(() => seen.length - from, { timeout: 20_000 })
        .toBeGreaterThanOrEqual(count);
      return seen.slice(from);
    },
  };
}
