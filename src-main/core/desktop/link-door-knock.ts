/**
 * Knocking on the running Callbar's link door (link-door.ts) with a link: what `callbar open-url`
 * and the browser's native host do first. Undefined means no Callbar of this profile runs (no
 * door file, or nothing listens at its address): the caller then opens the link itself, with
 * nobody to ask. Bounded: the answer is one line of at most 4 KiB within `timeoutMs`.
 */
import { connect } from 'node:net';
import { CallbarError } from '../errors';
import { said } from '../text/said';
import { readDoorFile } from './link-door';
import { DOOR_LINE_LIMIT, DoorAnswer, DoorKnock } from './link-door-format';

/** A dial's answer from the platform may take its time; the door answers after it. */
const DEFAULT_TIMEOUT_MS = 30_000;

/** Nothing runs there: the door file is left over from a Callbar that did not close. */
const NOBODY_THERE = new Set(['ENOENT', 'ECONNREFUSED', 'ENOTSOCK', 'EACCES', 'EPERM']);

const failed = (key: string) => new CallbarError('link_door_failed', said(key));

export async function knockLinkDoor(
  dataDir: string,
  link: string,
  options: { timeoutMs?: number } = {},
): Promise<DoorAnswer | undefined> {
  // A link the door would refuse unread (over 512 characters, a control character) is not
  // knocked: the caller reads it itself, and the number reader says what is wrong with it (the
  // door's answer was "could not read what the other program sent").
  if (!DoorKnock.shape.link.safeParse(link).success) return undefined;
  const door = await readDoorFile(dataDir).catch(() => undefined);
  if (!door) return undefined;
  return new Promise((resolve, reject) => {
    const socket = connect(door.address);
    let buffered = Buffer.alloc(0);
    let connected = false;
    const timer = setTimeout(() => {
      socket.destroy();
      reject(failed('errors:linkDoor.noAnswer'));
    }, options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    const done = (settle: () => void) => {
      clearTimeout(timer);
      socket.destroy();
      settle();
    };
    socket.on('connect', () => {
      connected = true;
      socket.write(`${JSON.stringify({ key: door.key, link })}\n`);
    });
    socket.on('data', (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      if (buffered.length > DOOR_LINE_LIMIT) {
        done(() => reject(failed('errors:linkDoor.badAnswer')));
      }
    });
    socket.on('end', () => {
      const line = buffered.toString('utf8').split('\n')[0] ?? '';
      let answer: DoorAnswer | undefined;
      try {
        answer = DoorAnswer.parse(JSON.parse(line));
      } catch {
        return done(() => reject(failed('errors:linkDoor.badAnswer')));
      }
      done(() => resolve(answer));
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (!connected && NOBODY_THERE.has(error.code ?? '')) return done(() => resolve(undefined));
      done(() => reject(error));
    });
  });
}

/**
 * Whether a Callbar of this profile runs now: its door file names an address at which something
 * accepts a connection within `timeoutMs` (closed at once, no knock: the door drops it).
 */
export async function linkDoorAnswers(dataDir: string, timeoutMs = 2000): Promise<boolean> {
  const door = await readDoorFile(dataDir).catch(() => undefined);
  if (!door) return false;
  return new Promise((resolve) => {
    const socket = connect(door.address);
    const settle = (open: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(open);
    };
    const timer = setTimeout(() => settle(false), timeoutMs);
    socket.once('connect', () => settle(true));
    socket.once('error', () => settle(false));
  });
}
