/**
 * Activation waits at the relay: what a desktop registers before the portal link is shown, kept
 * for the platform's activation of its key. The only state an unauthenticated client can leave in
 * the store, so everything about it is small, short-lived and capped:
 *
 * - a registration holds a key's SHA-256, an X25519 public key, a proof's SHA-256 and the sealed
 *   connect link (≤ 2 KiB); the first registration of a key holds (set if absent), and a
 *   different one for the same key ends the attempt (`registered-twice`);
 * - it lives WAIT_IDLE_MS after its registration or its owner's last poll, never past the
 *   attempt's 10 minutes;
 * - the key stays its first registrant's for the attempt's 10 minutes (`taken:<key sha256>`, its
 *   public key and proof's SHA-256), whatever becomes of the registration: ended, cancelled,
 *   expired or used, it is never registered again by anyone else. Before, once the desktop had
 *   heard that a squatter ended its attempt (or cancelled, or stopped polling), the registration
 *   was gone and the squatter registered the key afresh: the user's subscription in the portal
 *   page still open then sealed the tokens to the squatter;
 * - a client address may keep `perAddress` registrations, all clients `total` (all nodes); and
 *   start STARTED_PER_WAIT times as many attempts per 10 minutes (each leaves its `taken` mark).
 */
import { ATTEMPT_LIFETIME_MS } from '../src-main/core/account/activation-attempts';
import { secretsEqual } from '../src-main/core/secret-compare';
import type {
  ActivationRegistration,
  AttemptEnd,
  RelayedActivation,
} from '../src-main/core/relay/relay-protocol';
import { sha256, type RelayContext } from './relay-context';
import type { DeviceRecord } from './relay-store';

/** How long a registration lives without a poll from its desktop (a poll is held 20 s). */
export const WAIT_IDLE_MS = 60_000;

/** A registration as kept (under `wait:<key sha256>`). */
export interface WaitRecord {
  public_key: string;
  proof_sha256: string;
  /** The connect link's name (its record is `wait:connect:<name>`). */
  link: string;
  /** The client address that registered it (whose cap it counts in). */
  address: string;
  /** When the attempt ends at the latest (ms). */
  until: number;
  /** Set once the attempt was ended (the platform's activation is then refused). */
  ended?: AttemptEnd;
}

/** A connect link as kept: its attempt, and its seal until its first use. */
export interface LinkRecord {
  key_sha256: string;
  sealed?: string;
}

export const linkName = (name: string) => `connect:${name}`;
/** Who registered a key first (kept for the attempt's lifetime). */
const takenName = (keySha256: string) => `taken:${keySha256}`;
/** Attempts an address (and all clients) may start per lifetime, per registration it may keep. */
export const STARTED_PER_WAIT = 10;
/**
 * A device made for an activation, until its desktop confirms (PendingDevice, named by the
 * SHA-256 of its credential, for the handoff's life): which attempt it belongs to, and the
 * record that becomes the device only once its desktop confirmed it stored the tokens. So a
 * confirmation is taken only from the desktop that opened that device's handoff: another
 * device's credential (another desktop of the organisation) reaches neither, and can neither
 * make the platform's activation fail nor leave anything at the relay. And a node that dies
 * while the platform's call waits (SIGKILL, a crash) leaves no device behind: before, the record
 * was made first and removed by that node unless confirmed, so it stayed for good, its queue
 * taking the user's call events.
 */
export interface PendingDevice {
  record: DeviceRecord;
  key_sha256: string;
  /** The platform's call (activationFingerprint), for its repeats. */
  fingerprint: string;
}
export const pendingName = (credentialSha256: string) => `pending:${credentialSha256}`;
/**
 * An activation its desktop confirmed stored (the attempt's lifetime): the platform's identical
 * repeat (its own retry, or after the node holding its call died) is answered 200 as the first
 * was, and changes nothing.
 */
export const activatedName = (keySha256: string) => `activated:${keySha256}`;
/** The SHA-256 of what makes a platform's activation call the same one again. */
export function activationFingerprint(call: RelayedActivation): string {
  const { tenant_id, user_extension, confirmation_key, access_token, refresh_token } = call;
  return sha256(
    JSON.stringify([tenant_id, user_extension, confirmation_key, access_token, refresh_token]),
  );
}
export const confirmBox = (deviceId: string) => `confirm:${deviceId}`;
const ALL = 'waits';
const addressPool = (address: string) => `waits:${address}`;
const member = (keySha256: string, record: WaitRecord) => `${keySha256}:${record.proof_sha256}`;
const started = (pool: string) => `started:${pool}`;
/** What makes a registration its desktop's: its public key and proof. */
const holder = (record: WaitRecord) => `${record.public_key}:${record.proof_sha256}`;

export type Registered = 'registered' | 'again' | 'conflict' | 'full-address' | 'full';

export function activationWaits(context: RelayContext) {
  const { store, now, waits } = context;
  const life = (record: WaitRecord) => Math.max(1, Math.min(WAIT_IDLE_MS, record.until - now()));
  /** Counts the registration in its address's pool and in all (`pool` names them) for `ttl`. */
  const admitIn = async (
    keySha256: string,
    record: WaitRecord,
    ttl: number,
    pool = (name: string) => name,
    factor = 1,
  ) => {
    const one = member(keySha256, record);
    const mine = pool(addressPool(record.address));
    if (!(await store.admit(mine, one, waits.perAddress * factor, ttl, now()))) {
      return 'full-address' as const;
    }
    if (!(await store.admit(pool(ALL), one, waits.total * factor, ttl, now()))) {
      await store.release(mine, one);
      return 'full' as const;
    }
    return undefined;
  };
  const admit = (keySha256: string, record: WaitRecord) => admitIn(keySha256, record, life(record));
  /** A new attempt, counted for its whole lifetime (what bounds the `taken` marks). */
  const admitStarted = (keySha256: string, record: WaitRecord) =>
    admitIn(keySha256, record, ATTEMPT_LIFETIME_MS, started, STARTED_PER_WAIT);
  const release = async (keySha256: string, record: WaitRecord) => {
    await store.release(addressPool(record.address), member(keySha256, record));
    await store.release(ALL, member(keySha256, record));
  };
  const read = async (keySha256: string) => {
    const text = await store.readWaiting(keySha256);
    return text === undefined ? undefined : (JSON.parse(text) as WaitRecord);
  };

  return {
    read,

    /** Registers `registration` for the client at `address`. */
    async register(registration: ActivationRegistration, address: string): Promise<Registered> {
      const name = registration.key_sha256;
      const record: WaitRecord = {
        public_key: registration.public_key,
        proof_sha256: registration.proof_sha256,
        link: registration.connect_link.name,
        address,
        until: now() + ATTEMPT_LIFETIME_MS,
      };
      const first = await store.readWaiting(takenName(name));
      if (first !== undefined && !secretsEqual(first, holder(record))) {
        return this.again(name, undefined, record);
      }
      const before = await read(name);
      if (before) return this.again(name, before, record);
      // Its own attempt, over (used, cancelled, expired): its poll hears so (410).
      if (first !== undefined) return 'again';
      const full = await admit(name, record);
      if (full) return full;
      const startedFull = await admitStarted(name, record);
      if (startedFull) {
        await release(name, record);
        return startedFull;
      }
      const taken = await store.putWaiting(takenName(name), holder(record), ATTEMPT_LIFETIME_MS);
      if (taken !== undefined && !secretsEqual(taken, holder(record))) {
        await release(name, record);
        return this.again(name, undefined, record);
      }
      const raced = await store.putWaiting(name, JSON.stringify(record), WAIT_IDLE_MS);
      if (raced !== undefined) {
        await release(name, record);
        return this.again(name, JSON.parse(raced) as WaitRecord, record);
      }
      const link: LinkRecord = { key_sha256: name, sealed: registration.connect_link.sealed };
      const linkTaken = await store.putWaiting(
        linkName(record.link),
        JSON.stringify(link),
        WAIT_IDLE_MS,
      );
      if (linkTaken !== undefined) {
        await this.end(name, 'registered-twice');
        return 'conflict';
      }
      return 'registered';
    },

    /**
     * A registration of a key registered before: the same desktop again (its answer was lost) is
     * fine; anyone else has the portal link, and the attempt ends.
     */
    async again(
      name: string,
      before: WaitRecord | undefined,
      given: WaitRecord,
    ): Promise<Registered> {
      if (
        before &&
        !before.ended &&
        before.public_key === given.public_key &&
        secretsEqual(before.proof_sha256, given.proof_sha256)
      ) {
        return 'again';
      }
      await this.end(name, 'registered-twice');
      return 'conflict';
    },

    /** The registration when `proof` is its owner's; 'wrong' otherwise. */
    async proven(keySha256: string, proof: string): Promise<WaitRecord | 'wrong' | undefined> {
      const record = await read(keySha256);
      if (!record) return undefined;
      return secretsEqual(sha256(proof), record.proof_sha256) ? record : 'wrong';
    },

    /** Its owner polled: the registration lives on (within the attempt's lifetime). */
    async renew(keySha256: string, record: WaitRecord): Promise<void> {
      const ttl = life(record);
      await store.renewWaiting(keySha256, ttl);
      await store.renewWaiting(linkName(record.link), ttl);
      await admit(keySha256, record);
    },

    /** Ends the attempt for `reason`: its poll hears it, the platform's activation is refused. */
    async end(keySha256: string, reason: AttemptEnd): Promise<void> {
      const record = await read(keySha256);
      if (!record || record.ended) return;
      await store.updateWaiting(keySha256, JSON.stringify({ ...record, ended: reason }));
      await store.push(`handoff:${keySha256}`, reason, context.handoffTimeoutMs);
    },

    /** Forgets the registration and its connect link (the attempt is over). */
    async remove(keySha256: string): Promise<void> {
      const record = await read(keySha256);
      await store.takeWaiting(keySha256);
      if (!record) return;
      await store.takeWaiting(linkName(record.link));
      await release(keySha256, record);
    },
  };
}

export type ActivationWaits = ReturnType<typeof activationWaits>;
