/**
 * The channel baseline's other end: the baseline's plain filter in a process of its own, behind
 * one WebSocket on loopback, as the preview's core is behind its channel. It also serves the
 * baseline page's build, so the page and its socket share one loopback origin as the preview's
 * do (Chromium refuses a page of another origin a socket to loopback). A message `{"id": n,
 * "query": "…"}` is answered `{"id": n, "query": "…", "hits": […]}`. Prints its port, then
 * serves until killed.
 *
 *   node --import tsx bench/felt/baseline/filter-server.ts contacts.json baseline-build-folder
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, normalize } from 'node:path';
import { WebSocketServer } from 'ws';
import type { DirectoryContact } from '../../../src-shared/contract';
import { plainFilter } from './filter';

const [contactsFile, pageFolder] = process.argv.slice(2) as [string, string];
const search = plainFilter(JSON.parse(readFileSync(contactsFile, 'utf8')) as DirectoryContact[]);
const TYPES: Record<string, string> = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.css': 'text/css',
};

const http = createServer((request, response) => {
  const path = new URL(request.url ?? '/', 'http://127.0.0.1').pathname;
  const file = normalize(join(pageFolder, path === '/' ? 'index.html' : path));
  try {
    if (!file.startsWith(pageFolder)) throw new Error('outside the page');
    const body = readFileSync(file);
    response.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
    response.end(body);
  } catch {
    response.writeHead(404).end();
  }
});
const server = new WebSocketServer({ server: http, maxPayload: 64 * 1024 });
server.on('connection', (socket) => {
  socket.on('message', (data: Buffer) => {
    const { id, query } = JSON.parse(data.toString('utf8')) as { id: number; query: string };
    socket.send(JSON.stringify({ id, query, hits: search.filter(query) }));
  });
});
http.listen(0, '127.0.0.1', () => {
  const address = http.address();
  if (address && typeof address === 'object') console.log(`port ${address.port}`);
});
