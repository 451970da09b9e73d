/**
 * What a renderer holds, for the secrets audit: every IPC message the page sent and received
 * (the preview's WebSocket channel, frame by frame, and every fetch of the bridge, recorded inside
 * the page), and snapshots of the
 * DOM (markup, every attribute, text, form values), Web Storage, IndexedDB, Cache Storage,
 * cookies and the JS heap.
 */
import type { Page } from '@playwright/test';

/** One IPC message as the page saw it: a request (with its headers) or a chunk of an answer. */
export interface IpcMessage {
  direction: 'sent' | 'received';
  url: string;
  text: string;
  /** The call's channel (`calls.dial`), for a request on the preview's WebSocket channel. */
  channel?: string;
}

/**
 * Records every request the page makes to the preview's `/__callbar/` endpoints and every byte
 * of every answer (the event stream too: the answer's body is teed, the bridge reads its half).
 * Installed before any script of the page runs; the records live in the test, so a reload
 * loses nothing.
 */
export async function recordIpc(page: Page): Promise<IpcMessage[]> {
  const messages: IpcMessage[] = [];
  // The window's calls: one frame `{id, channel, body}` each way on the preview's channel.
  page.on('websocket', (socket) => {
    socket.on('framesent', ({ payload }) => {
      const text = String(payload);
      let channel: string | undefined;
      try {
        channel = (JSON.parse(text) as { channel?: string }).channel;
      } catch {
        channel = undefined;
      }
      messages.push({
        direction: 'sent',
        url: socket.url(),
        text,
        ...(channel ? { channel } : {}),
      });
    });
    socket.on('framereceived', ({ payload }) => {
      messages.push({ direction: 'received', url: socket.url(), text: String(payload) });
    });
  });
  await page.exposeFunction(
    '__auditIpc',
    (direction: IpcMessage['direction'], url: string, text: string) => {
      messages.push({ direction, url, text });
    },
  );
  await page.addInitScript(() => {
    const record = (window as unknown as { __auditIpc: (...args: string[]) => Promise<void> })
      .__auditIpc;
    const original = window.fetch.bind(window);
    window.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = input instanceof Request ? input.url : String(input);
      if (!url.includes('/__callbar/')) return original(input, init);
      const headers = JSON.stringify(init?.headers ?? {});
      const body = typeof init?.body === 'string' ? init.body : '';
      void record('sent', url, `${init?.method ?? 'GET'} ${headers} ${body}`);
      const response = await original(input, init);
      if (!response.body) return response;
      const [mine, theirs] = response.body.tee();
      void (async () => {
        const reader = mine.pipeThrough(new TextDecoderStream()).getReader();
        for (;;) {
          const { done, value } = await reader.read();
          if (done) return;
          void record('received', url, value);
        }
      })().catch(() => undefined);
      return new Response(theirs, {
        status: response.status,
        statusText: response.statusText,
        headers: response.headers,
      });
    };
  });
  return messages;
}

/** Every place in the page a secret could sit, as [place, text] pairs. */
export async function rendererPlaces(page: Page): Promise<[string, string][]> {
  const inPage = await page.evaluate(async () => {
    const places: [string, string][] = [];
    const elements = [...document.querySelectorAll('*')];
    places.push(['DOM markup', document.documentElement.outerHTML]);
    places.push([
      'DOM attributes',
      elements
        .flatMap((element) => [...element.attributes].map((a) => `${a.name}=${a.value}`))
        .join('\n'),
    ]);
    places.push(['DOM text', document.documentElement.textContent ?? '']);
    places.push([
      'form values',
      elements
        .filter(
          (element): element is HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement =>
            element instanceof HTMLInputElement ||
            element instanceof HTMLTextAreaElement ||
            element instanceof HTMLSelectElement,
        )
        .map((element) => element.value)
        .join('\n'),
    ]);
    places.push(['address', `${location.href} ${document.title} ${document.referrer}`]);
    const storage = (store: Storage) =>
      JSON.stringify(Object.fromEntries(Object.keys(store).map((key) => [key, store[key]])));
    places.push(['localStorage', storage(localStorage)]);
    places.push(['sessionStorage', storage(sessionStorage)]);

    const databases = await indexedDB.databases();
    for (const { name, version } of databases) {
      if (!name) continue;
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const request = indexedDB.open(name, version);
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error ?? new Error(`cannot open ${name}`));
      });
      for (const storeName of db.objectStoreNames) {
        const store = db.transaction(storeName, 'readonly').objectStore(storeName);
        const [keys, values] = await Promise.all(
          [store.getAllKeys(), store.getAll()].map(
            (request) =>
              new Promise<unknown>((resolve, reject) => {
                request.onsuccess = () => resolve(request.result);
                request.onerror = () => reject(request.error ?? new Error('read failed'));
              }),
          ),
        );
        places.push([`IndexedDB ${name}/${storeName}`, JSON.stringify({ keys, values })]);
      }
      db.close();
    }
    places.push(['IndexedDB databases', JSON.stringify(databases)]);

    const cacheNames = await caches.keys();
    for (const cacheName of cacheNames) {
      const cache = await caches.open(cacheName);
      for (const request of await cache.keys()) {
        const response = await cache.match(request);
        places.push([`Cache ${cacheName}`, `${request.url} ${await response?.text()}`]);
      }
    }
    places.push(['Cache Storage names', JSON.stringify(cacheNames)]);
    return places;
  });
  const cookies = await page.context().cookies();
  return [...inPage, ['cookies', JSON.stringify(cookies)]];
}

/** The page's whole JS heap as a heap snapshot (every string the renderer still holds). */
export async function heapSnapshot(page: Page): Promise<string> {
  const cdp = await page.context().newCDPSession(page);
  const chunks: string[] = [];
  cdp.on('HeapProfiler.addHeapSnapshotChunk', ({ chunk }) => chunks.push(chunk));
  await cdp.send('HeapProfiler.enable');
  await cdp.send('HeapProfiler.collectGarbage');
  await cdp.send('HeapProfiler.takeHeapSnapshot', { reportProgress: false });
  await cdp.detach();
  return chunks.join('');
}
