/**
 * The link door: how a link from another program reaches the running Callbar (the desktop app or
 * the web preview). `callbar open-url` and the browser extension's native host knock on it; the
 * running Callbar opens the link as if the operating system had handed it over (`deliver`: the
 * shell's openDialLink, so calls.openUrl's rules hold: emergency, premium-rate, foreign and
 * unknown numbers, and every link unless the user turned "dial links without asking" on, wait
 * for a yes in the window).
 *
 * Not a port: a Unix domain socket (a named pipe on Windows). Its address and a random key, new
 * each run, are in the profile's door file (0600 in the 0700 profile folder), and every knock must
 * carry the key (compared in constant time): only the user's own programs can knock, and what
 * they knock with is a link, never a yes. Bounded: one knock of at most 4 KiB per connection, read
 * within 5 s, the connection closed once its answer is written; 4 connections at a time, as the
 * receiver's (http/connection-limits.ts: past them, the oldest that has not knocked yet makes
 * room); 10 knocks at once, then one every 2 s (a refused key counts too), the rest refused at
 * once, never queued. Before, the door only ended a connection after its answer, and a knocker that
 * never read kept it: 4 such connections that sent nothing held the door shut for good (a knock
 * 40 s later: EPIPE).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { secretsEqual } from '../secret-compare';
import { TokenBucket, type Rate } from '../calls/token-bucket';
import { writeFileAtomic } from '../files/atomic-write';
import { limitConnections } from '../http/connection-limits';
import { readFileNoFollow } from '../files/no-follow-file';
import type { Logger } from '../log/logger';
import { said } from '../text/said';
import { inEnglish } from '../text/translators';
import { DOOR_LINE_LIMIT, DoorAnswer, DoorFile, DoorKnock, doorFilePath } from './link-door-format';

const READ_DEADLINE_MS = 5000;
const MAX_CONNECTIONS = 4;
const KNOCK_RATE: Rate = { burst: 10, perSecond: 0.5 };
/** A Unix socket's path must fit sockaddr_un (108 bytes on Linux, 104 on macOS). */
const MAX_SOCKET_PATH = 100;

export interface LinkDoorOptions {
  dataDir: string;
  /** Opens the link as the shell does for one from the OS; its answer goes back to the knocker. */
  deliver: (link: string) => Promise<DoorAnswer>;
  log: Logger;
  now?: () => number;
  platform?: NodeJS.Platform;
  /** How long a connection may take to knock (default 5 s). */
  readDeadlineMs?: number;
}

export interface LinkDoor {
  readonly address: string;
  close(): Promise<void>;
}

function refusal(code: string, key: string): DoorAnswer {
  return { ok: false, error: { code, message: inEnglish(said(key)) } };
}

/** Where to listen: a socket in the profile folder when its path fits, else a private folder. */
function doorAddress(
  dataDir: string,
  platform: NodeJS.Platform,
): { address: string; dir?: string } {
  if (platform === 'win32') {
    return { address: `\\\\.\\pipe\\callbar-door-${randomBytes(16).toString('hex')}` };
  }
  const inProfile = join(dataDir, 'link-door.sock');
  if (Buffer.byteLength(inProfile) <= MAX_SOCKET_PATH) return { address: inProfile };
  // mkdtemp makes a folder of the user's own, 0700, with a name nobody could have chosen first.
  const dir = mkdtempSync(join(tmpdir(), 'callbar-door-'));
  return { address: join(dir, 'door.sock'), dir };
}

/**
 * Reads one line of at most DOOR_LINE_LIMIT bytes (undefined: not one); null when the connection
 * closed first (its deadline, connection-limits.ts, or the knocker) or ended with nothing sent.
 */
function readLine(socket: Socket): Promise<string | undefined | null> {
  return new Promise((resolve) => {
    let buffered = Buffer.alloc(0);
    const finish = (line: string | undefined | null) => {
      socket.off('data', onData);
      socket.off('end', onEnd);
      socket.off('close', onClose);
      resolve(line);
    };
    const onData = (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      const newline = buffered.indexOf(10);
      if (newline >= 0) return finish(buffered.subarray(0, newline).toString('utf8'));
      if (buffered.length >= DOOR_LINE_LIMIT) finish(undefined);
    };
    // Ended with nothing sent: no knock (`callbar activate` asking whether Callbar runs).
    const onEnd = () => finish(buffered.length === 0 ? null : undefined);
    const onClose = () => finish(null);
    socket.on('data', onData);
    socket.once('end', onEnd);
    socket.once('close', onClose);
  });
}

function parseKnock(line: string): DoorKnock | undefined {
  try {
    const knock = DoorKnock.safeParse(JSON.parse(line));
    return knock.success ? knock.data : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Opens the door of the profile in `dataDir` and writes the door file. A door file left by a
 * Callbar that did not close is replaced; another running Callbar of the same profile hands its
 * door over to this one.
 */
export async function openLinkDoor(options: LinkDoorOptions): Promise<LinkDoor> {
  const { dataDir, log } = options;
  const platform = options.platform ?? process.platform;
  const key = randomBytes(32).toString('base64url');
  const bucket = new TokenBucket(KNOCK_RATE, options.now ?? Date.now);
  const { address, dir } = doorAddress(dataDir, platform);

  const answer = async (socket: Socket): Promise<DoorAnswer | undefined> => {
    const line = await readLine(socket);
    if (line === null) return undefined;
    // Its knock came: from here on it waits only for the answer.
    connections.served(socket);
    if (!bucket.take()) return refusal('busy', 'errors:linkDoor.busy');
    if (line === undefined) return refusal('invalid_request', 'errors:linkDoor.invalid');
    const knock = parseKnock(line);
    if (!knock) return refusal('invalid_request', 'errors:linkDoor.invalid');
    if (!secretsEqual(knock.key, key)) {
      log.warn('a knock on the link door carried the wrong key; refused');
      return refusal('door_refused', 'errors:linkDoor.wrongKey');
    }
    return DoorAnswer.parse(await options.deliver(knock.link));
  };

  const server: Server = createServer((socket) => {
    socket.on('error', () => undefined);
    answer(socket)
      .catch((error: unknown) => {
        log.error('the link door could not open a link', { error });
        return refusal('internal', 'errors:linkDoor.failed');
      })
      .then((reply) => {
        // What became of each knock past the rate bound (never the link: a number is personal).
        if (reply && (reply.ok || reply.error.code !== 'busy')) {
          log.info('the link door answered a knock', {
            answer: reply.ok ? reply.status : reply.error.code,
          });
        }
        // Closed once written: a knocker that never reads must not keep the connection.
        if (reply && !socket.destroyed) {
          socket.end(`${JSON.stringify(reply)}\n`, () => socket.destroy());
        } else socket.destroy();
      })
      .catch(() => socket.destroy());
  });
  // A connection must knock within its time; 4 at a time (a socket has no client address: all
  // count as one client).
  const connections = limitConnections(
    server,
    {
      name: 'link door',
      firstRequestMs: options.readDeadlineMs ?? READ_DEADLINE_MS,
      perClient: MAX_CONNECTIONS,
      whenFull: 'close-oldest-waiting',
      clientOf: () => 'local',
    },
    log,
  );
  if (platform !== 'win32') rmSync(address, { force: true });
  await new Promise<void>((ready, fail) => {
    server.once('error', fail);
    // The socket is in the profile folder (0700) or a private one: nobody else reaches it.
    server.listen(address, () => {
      server.off('error', fail);
      ready();
    });
  });
  const door: DoorFile = { version: 1, address, key, pid: process.pid };
  await writeFileAtomic(doorFilePath(dataDir), `${JSON.stringify(door)}\n`, {
    mode: 0o600,
    dirMode: 0o700,
  });
  log.info('link door open', { address });

  let closing: Promise<void> | undefined;
  const close = async () => {
    await new Promise<void>((done) => server.close(() => done()));
    // The file is this door's only if no later Callbar of the profile has replaced it.
    const current = await readDoorFile(dataDir).catch(() => undefined);
    if (current?.key === key) rmSync(doorFilePath(dataDir), { force: true });
    if (dir) rmSync(dir, { recursive: true, force: true });
  };
  return { address, close: () => (closing ??= close()) };
}

/** The profile's door file, or undefined when there is none (or it is not one). */
export async function readDoorFile(dataDir: string): Promise<DoorFile | undefined> {
  const text = await readFileNoFollow(doorFilePath(dataDir), DOOR_LINE_LIMIT);
  if (text === undefined) return undefined;
  try {
    const file = DoorFile.safeParse(JSON.parse(text));
    return file.success ? file.data : undefined;
  } catch {
    return undefined;
  }
}
