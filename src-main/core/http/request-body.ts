import type { IncomingMessage } from 'node:http';
import { HttpRejection } from './http-rejection';

/**
 * The whole body of `request` as text, bounded in size (413, also when Content-Length alone says
 * too much) and in time (408). After a rejection the rest of the body is not read, so the caller
 * should close the connection.
 */
export function readRequestBody(
  request: IncomingMessage,
  limits: { maxBytes: number; timeoutMs: number },
): Promise<string> {
  return new Promise((resolve, reject) => {
    const declared = Number(request.headers['content-length'] ?? 0);
    if (declared > limits.maxBytes) return reject(new HttpRejection(413, 'Body too large.'));
    const chunks: Buffer[] = [];
    let size = 0;
    const timer = setTimeout(() => {
      reject(new HttpRejection(408, 'The body took too long to arrive.'));
    }, limits.timeoutMs);
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limits.maxBytes) {
        clearTimeout(timer);
        reject(new HttpRejection(413, 'Body too large.'));
        request.pause();
        return;
      }
      chunks.push(chunk);
    });
    request.on('end', () => {
      clearTimeout(timer);
      resolve(Buffer.concat(chunks).toString('utf8'));
    });
    request.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}
