/**
 * Reading the machine's policies, validating each value on its own, and merging them:
 *
 * - Linux: `/etc/callbar/policies.json`, then `/etc/callbar/policies.d/*.json` in name order
 *   (a later file wins), each `{"locked": {…}, "recommended": {…}}`.
 * - macOS: managed preferences, `/Library/Managed Preferences/<user>/com.callbar.desktop.plist`
 *   then `/Library/Managed Preferences/com.callbar.desktop.plist` (the machine's wins); top-level
 *   keys are locked, those of a `Recommended` dictionary recommended. XML or binary.
 * - Windows: `HKCU` then `HKLM\Software\Policies\Callbar` (registry-policy.ts).
 *
 * `CALLBAR_POLICY_DIR` replaces the system location (for tests and for trying a policy before
 * deploying it): Linux reads its policies.json and policies.d/, macOS the plists in it, Windows
 * its `policies.reg` (a registry export) instead of the registry. Policies steer Callbar for
 * the people using it; they do not confine someone who runs programs of their own.
 *
 * A file that cannot be read or parsed, an unknown key or an invalid value (or one beyond
 * POLICY_VALUE_LIMITS) is one line in `problems` naming the file (or registry key) and the field;
 * that value (or file) is ignored and everything else applies. Reading never throws.
 */
import { readdirSync, readFileSync, statSync, watch, type FSWatcher } from 'node:fs';
import { dirname, join } from 'node:path';
import { errorMessage, sayingOf } from '../../errors';
import { fileStamp } from '../../files/file-stamp';
import { valueBeyond, type ValueLimits } from '../../http/bounded-json';
import { said, type Said } from '../../text/said';
import { holdSentences, inEnglish, spokenSaid } from '../../text/translators';
import { describeValue } from '../settings-issues';
import { refusedPortIn, whyPortRefused } from '../local-port';
import { describeJsonError } from '../../text/json-error';
import type { PolicyLayer } from './policy-layer';
import {
  mayHavePolicies,
  policyFolder,
  policyPaths,
  readsRegistry,
  type PolicyLocation,
} from './policy-location';
import {
  isPolicyName,
  POLICY_RULES,
  PolicyOnly,
  PolicyDocument,
  PolicySettings,
  type PolicyLevel,
  type PolicyName,
  type PolicyValues,
} from './policy-schema';
import { decodeRegFile, parseRegFile } from './reg-file';
import { registryLayers } from './registry-policy';

export {
  POLICY_DIR_VARIABLE,
  POLICY_DOMAIN,
  SYSTEM_POLICY_DIRS,
  type PolicyLocation,
} from './policy-location';

/** A policy file is a few kilobytes; anything past this is not one. */
const MAX_POLICY_BYTES = 1024 * 1024;

/**
 * A policy's value is a word, a number or a short list: one nested deeper or holding more than
 * this is ignored (and said) before it is validated or described (a `region` nested 5,000 deep
 * overflowed the stack of every Callbar process describing it).
 */
export const POLICY_VALUE_LIMITS: ValueLimits = { maxDepth: 4, maxNodes: 1000 };

/** The machine's policies, merged and validated. */
export interface Policies {
  locked: PolicyValues;
  recommended: PolicyValues;
  /** Where each value comes from (file path or registry key). */
  origins: Record<PolicyLevel, Partial<Record<PolicyName, string>>>;
  /** One sentence per file, key or value that was ignored. */
  problems: string[];
}

/** No policy at all. */
export const NO_POLICIES: Policies = Object.freeze({
  locked: {},
  recommended: {},
  origins: { locked: {}, recommended: {} },
  problems: [],
});

/** The machine's policies. Never throws: what cannot be read is a line in `problems`. */
export async function readPolicies(location: PolicyLocation): Promise<Policies> {
  if (readsRegistry(location)) {
    try {
      const { readWindowsPolicyRegistry } = await import('./windows-registry');
      return mergeLayers(registryLayers(await readWindowsPolicyRegistry()));
    } catch (error) {
      return mergeLayers([
        inEnglish(said('errors:policy.registryUnreadable', { reason: errorMessage(error) })),
      ]);
    }
  }
  return readPolicyFiles(location, await plistParserFor(location));
}

/**
 * The policies in files (every source but the live Windows registry, which {@link readPolicies}
 * reads), for the callers that cannot wait. It never loads the plist parser: a managed
 * preferences plist there is not read but said (a line in `problems`), never skipped in silence;
 * {@link readPolicies} reads it.
 */
export function readPoliciesSync(location: PolicyLocation): Policies {
  return readPolicyFiles(location, undefined);
}

/** Parses a plist, XML or binary (the `plist` package's `parse`). */
type PlistParser = (plist: string | Uint8Array) => unknown;

/**
 * The plist parser, loaded only where a managed preferences plist may be there to read (macOS, or
 * a macOS policy folder): it and the XML parser under it cost a start that reads none a tenth of
 * a second. One that cannot be loaded parses nothing, and says why for each plist.
 */
async function plistParserFor(location: PolicyLocation): Promise<PlistParser | undefined> {
  if ((location.platform ?? process.platform) !== 'darwin' || !mayHavePolicies(location)) {
    return undefined;
  }
  try {
    loadedPlistParser = (await import('plist')).parse;
    return loadedPlistParser;
  } catch (error) {
    return () => {
      throw error;
    };
  }
}

/** The plist parser once {@link plistParserFor} loaded it: {@link livePolicies} reads with it. */
let loadedPlistParser: PlistParser | undefined;

/** The machine's policies as they are now, read again when a policy file changes. */
export interface LivePolicies {
  /** The policies now (the same object until a policy file changes). */
  current(): Policies;
  close(): void;
}

/**
 * How often a use looks at the policy files again (a few `stat`s and a folder read: about
 * 0.2 ms of every keystroke's search when each use looked, `bench/felt-router-cost.ts`).
 */
const POLICY_RECHECK_MS = 1000;

/**
 * The policies of `location`, starting from `first` (what {@link readPolicies} read at start),
 * read again whenever a policy file appears, changes or goes: a watch on the policy folders reads
 * them at once, and a use looks at the files again (a few `stat`s) at most once a second, for
 * what a watch misses. An administrator's change applies to a running Callbar within a second,
 * as it does to every CLI run after it. `onChange` hears the new policies. The live Windows
 * registry is read at start only.
 */
export function livePolicies(
  location: PolicyLocation,
  first: Policies,
  options: { onChange?: (policies: Policies) => void; watch?: boolean } = {},
): LivePolicies {
  const platform = location.platform ?? process.platform;
  const dir = readsRegistry(location) ? undefined : policyFolder(location);
  if (dir === undefined) return { current: () => first, close: () => undefined };
  const paths = policyPaths(dir, platform);
  let policies = first;
  let seen = policyStamp(paths, platform);
  let lookedAt = performance.now();
  const look = (): Policies => {
    lookedAt = performance.now();
    const now = policyStamp(paths, platform);
    if (now === seen) return policies;
    seen = now;
    policies = readPolicyFiles(location, loadedPlistParser);
    options.onChange?.(policies);
    return policies;
  };
  const current = (): Policies =>
    performance.now() - lookedAt < POLICY_RECHECK_MS ? policies : look();
  const watchers: FSWatcher[] = [];
  if (options.watch !== false) {
    // The folder and, on Linux, its policies.d (macOS: the user's folder under it).
    const folders =
      platform === 'win32' ? [dir] : [dir, platform === 'darwin' ? dirname(paths[0]!) : paths[1]!];
    for (const folder of folders) {
      try {
        const watcher = watch(folder, { persistent: false }, () => look());
        watcher.on('error', () => watcher.close());
        watchers.push(watcher);
      } catch {
        // Not there (yet), or not to be watched: read again on use.
      }
    }
  }
  return {
    current,
    close: () => {
      for (const watcher of watchers) watcher.close();
    },
  };
}

/**
 * What the policy files are now: each one's identity, size and times, or that it is not there (the
 * change time too: a chmod that lets every user write a file is a change, and is said).
 */
function policyStamp(paths: string[], platform: NodeJS.Platform): string {
  const files = [...paths];
  if (platform !== 'win32' && platform !== 'darwin') {
    const folder = paths[1]!;
    try {
      files.push(
        ...readdirSync(folder)
          .sort()
          .map((name) => join(folder, name)),
      );
    } catch {
      // No drop-in folder.
    }
  }
  return files.map((file) => `${file}:${fileStamp(file) ?? 'none'}`).join('|');
}

function readPolicyFiles(location: PolicyLocation, parsePlist: PlistParser | undefined): Policies {
  const platform = location.platform ?? process.platform;
  const dir = policyFolder(location);
  if (dir === undefined) return NO_POLICIES;
  // Layers, and the sentences of what could not be read, in the order of the files.
  const found: Found = [];
  const paths = policyPaths(dir, platform);
  if (platform === 'win32') {
    const file = paths[0]!;
    const bytes = readPolicyFile(file, found);
    if (bytes) {
      try {
        found.push(...registryLayers(parseRegFile(decodeRegFile(bytes), file)));
      } catch (error) {
        found.push(inEnglish(said('errors:policy.ignoresFile', { problem: sayingOf(error) })));
      }
    }
  } else if (platform === 'darwin') {
    for (const file of paths) readPlist(file, found, parsePlist);
  } else {
    for (const file of linuxPolicyFiles(paths, found)) readJson(file, found);
  }
  return mergeLayers(found);
}

/** Policy layers, and sentences for what was ignored, in the order they were met. */
type Found = (PolicyLayer | string)[];

/** policies.json, then policies.d/*.json in name order ({@link policyPaths}); those that exist. */
function linuxPolicyFiles(paths: string[], found: Found): string[] {
  const [file, folder] = paths as [string, string];
  const files = [file];
  try {
    const names = readdirSync(folder).filter((name) => name.endsWith('.json'));
    files.push(...names.sort().map((name) => join(folder, name)));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
      found.push(
        inEnglish(said('errors:policy.folderUnreadable', { folder, reason: errorMessage(error) })),
      );
    }
  }
  return files;
}

/** The file's bytes; undefined when it does not exist or cannot be read (then a sentence). */
function readPolicyFile(file: string, found: Found): Buffer | undefined {
  try {
    const stat = statSync(file);
    if (!stat.isFile()) throw new Error(inEnglish(said('errors:policy.notAFile')));
    if (stat.size > MAX_POLICY_BYTES) throw new Error(inEnglish(said('errors:policy.tooLarge')));
    // Applied still (ignoring it would unlock what it locks just the same), and said: whoever can
    // write the file sets the locks.
    if (process.platform !== 'win32' && (stat.mode & 0o002) !== 0) {
      found.push(inEnglish(said('errors:policy.writableByAll', { file })));
    }
    return readFileSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    found.push(
      inEnglish(
        said('errors:policy.fileUnreadable', { file, reason: spokenSaid(errorMessage(error)) }),
      ),
    );
    return undefined;
  }
}

/** A JSON policy file: `{"locked": {…}, "recommended": {…}}`. */
function readJson(file: string, found: Found): void {
  const bytes = readPolicyFile(file, found);
  if (!bytes) return;
  const text = bytes.toString('utf8').replace(/^\uFEFF/, '');
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    found.push(
      inEnglish(said('errors:policy.notJson', { file, problem: describeJsonError(error, text) })),
    );
    return;
  }
  if (!isPlainObject(raw)) {
    found.push(
      inEnglish(said('errors:policy.notObject', { file, example: '{"locked": {"region": "AT"}}' })),
    );
    return;
  }
  const layers: PolicyLayer[] = [];
  for (const [level, values] of Object.entries(raw)) {
    if (!Object.hasOwn(PolicyDocument.shape, level)) {
      found.push(inEnglish(said('errors:policy.notALevel', { file, level })));
    } else if (!isPlainObject(values)) {
      found.push(
        inEnglish(
          said('errors:policy.levelNotObject', { file, level, example: '{"region": "AT"}' }),
        ),
      );
    } else {
      layers.push({ origin: file, level: level as PolicyLevel, values });
    }
  }
  // Recommended first: a file's locked value of a setting wins over its recommended one.
  layers.sort((a, b) => (a.level === b.level ? 0 : a.level === 'recommended' ? -1 : 1));
  found.push(...layers);
}

/** A managed preferences plist: top-level keys locked, a `Recommended` dictionary recommended. */
function readPlist(file: string, found: Found, parsePlist: PlistParser | undefined): void {
  const bytes = readPolicyFile(file, found);
  if (!bytes) return;
  if (!parsePlist) {
    found.push(inEnglish(said('errors:policy.plistNotRead', { file })));
    return;
  }
  let raw: unknown;
  try {
    raw = parsePlist(isBinaryPlist(bytes) ? new Uint8Array(bytes) : bytes.toString('utf8'));
  } catch (error) {
    found.push(
      inEnglish(said('errors:policy.plistUnparsed', { file, reason: errorMessage(error) })),
    );
    return;
  }
  if (!isPlainObject(raw)) {
    found.push(inEnglish(said('errors:policy.plistNotDictionary', { file })));
    return;
  }
  const { Recommended: recommended, ...rest } = raw;
  // A configuration profile's own keys (PayloadType, PayloadUUID, …) are not policies.
  const locked = Object.fromEntries(
    Object.entries(rest).filter(([key]) => !key.startsWith('Payload')),
  );
  if (recommended !== undefined) {
    if (isPlainObject(recommended)) {
      found.push({ origin: file, level: 'recommended', values: recommended });
    } else {
      found.push(inEnglish(said('errors:policy.recommendedNotDictionary', { file })));
    }
  }
  found.push({ origin: file, level: 'locked', values: locked });
}

function isBinaryPlist(bytes: Buffer): boolean {
  return bytes.subarray(0, 6).toString('latin1') === 'bplist';
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return (
    value !== null && typeof value === 'object' && !Array.isArray(value) && !(value instanceof Date)
  );
}

/**
 * Validates every value of every layer on its own and merges them, later layers winning; the
 * sentences among them (what could not be read) keep their place among the problems.
 */
export function mergeLayers(found: Found): Policies {
  // Kept for as long as these are the machine's policies: Settings shows them at any time.
  const hold = holdSentences('policies');
  const problems: string[] = [];
  const add = (problem: string) => {
    hold(problem);
    problems.push(problem);
  };
  const policies: Policies = {
    locked: {},
    recommended: {},
    origins: { locked: {}, recommended: {} },
    problems,
  };
  for (const layer of found) {
    if (typeof layer === 'string') {
      add(layer);
      continue;
    }
    const { origin, level, values } = layer;
    for (const [name, value] of Object.entries(values)) {
      if (!isPolicyName(name)) {
        add(
          inEnglish(
            said('errors:policy.unknown', { origin, problem: describeUnknownPolicy(name) }),
          ),
        );
        continue;
      }
      const beyond = valueBeyond(value, POLICY_VALUE_LIMITS);
      if (beyond) {
        add(
          inEnglish(
            said(
              beyond === 'depth' ? 'errors:policy.valueTooDeep' : 'errors:policy.valueTooLarge',
              {
                origin,
                level: said(`errors:policy.levels.${level}`),
                name,
                max:
                  beyond === 'depth' ? POLICY_VALUE_LIMITS.maxDepth : POLICY_VALUE_LIMITS.maxNodes,
              },
            ),
          ),
        );
        continue;
      }
      const parsed = PolicySettings.shape[name].safeParse(value);
      const refused = parsed.success ? undefined : refusedPortIn(parsed.error);
      if (refused !== undefined) {
        add(
          inEnglish(
            said('errors:policy.portRefused', {
              origin,
              level: said(`errors:policy.levels.${level}`),
              name,
              port: refused,
              why: whyPortRefused(refused),
            }),
          ),
        );
        continue;
      }
      if (!parsed.success || parsed.data === undefined) {
        add(
          inEnglish(
            said('errors:policy.invalidValue', {
              origin,
              level: said(`errors:policy.levels.${level}`),
              name,
              value: describeValue(value),
              rule: POLICY_RULES[name],
            }),
          ),
        );
        continue;
      }
      (policies[level] as Record<string, unknown>)[name] = parsed.data;
      policies.origins[level][name] = origin;
    }
  }
  return policies;
}

const SECRET_KEYS = new Set(['client_secret', 'access_token', 'refresh_token']);

function describeUnknownPolicy(name: string): Said {
  if (SECRET_KEYS.has(name.toLowerCase())) return said('errors:policy.secret', { name });
  return said('errors:policy.notAPolicy', { name });
}

/**
 * The policy-only values Callbar runs with (relay, favourites, link dialling policy, updates):
 * locked, else recommended, else the default. No user setting stands between them.
 */
export function policyOnlyValues(policies: Policies): PolicyOnly {
  const pick = (values: PolicyValues) =>
    Object.fromEntries(Object.entries(values).filter(([name]) => name in PolicyOnly.shape));
  return PolicyOnly.parse({ ...pick(policies.recommended), ...pick(policies.locked) });
}
