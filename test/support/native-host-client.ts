/**
 * The browser's side of native messaging, for tests: starts the real `callbar native-host` as a
 * browser does (the extension's origin as its argument) and exchanges length-prefixed JSON.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';

const root = join(import.meta.dirname, '../..');
const ENGLISH: NodeJS.ProcessEnv = { LC_ALL: '', LC_MESSAGES: '', LANG: 'C.UTF-8' };

export interface NativeHostProcess {
  send(message: unknown): void;
  /** Writes raw bytes (a header that lies, a body that is not JSON). */
  write(bytes: Buffer): void;
  /** The next message the host sent. */
  next(): Promise<Record<string, unknown>>;
  /** Closes the browser's side; resolves with the exit code. */
  close(): Promise<number | null>;
  exited: Promise<number | null>;
}

export function frame(body: Buffer): Buffer {
  const header = Buffer.alloc(4);
  header.writeUInt32LE(body.length);
  return Buffer.concat([header, body]);
}

export function startNativeHost(env: NodeJS.ProcessEnv): NativeHostProcess {
  const child = spawn(
    process.execPath,
    [join(root, 'bin/callbar.mjs'), 'native-host', 'chrome-extension://test/'],
    { cwd: root, env: { ...process.env, ...ENGLISH, ...env }, stdio: ['pipe', 'pipe', 'inherit'] },
  );
  const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
  const received: Record<string, unknown>[] = [];
  const waiting: ((message: Record<string, unknown>) => void)[] = [];
  let buffered = Buffer.alloc(0);
  child.stdout.on('data', (chunk: Buffer) => {
    buffered = Buffer.concat([buffered, chunk]);
    while (buffered.length >= 4 && buffered.length >= 4 + buffered.readUInt32LE(0)) {
      const length = buffered.readUInt32LE(0);
      const message = JSON.parse(buffered.subarray(4, 4 + length).toString()) as Record<
        string,
        unknown
      >;
      buffered = buffered.subarray(4 + length);
      const waiter = waiting.shift();
      if (waiter) waiter(message);
      else received.push(message);
    }
  });
  return {
    send: (message) => child.stdin.write(frame(Buffer.from(JSON.stringify(message)))),
    write: (bytes) => child.stdin.write(bytes),
    next: () => {
      const ready = received.shift();
      if (ready) return Promise.resolve(ready);
      return new Promise((resolve, reject) => {
        waiting.push(resolve);
        void exited.then(() => reject(new Error('the native host exited')));
      });
    },
    close: () => {
      child.stdin.end();
      return exited;
    },
    exited,
  };
}
