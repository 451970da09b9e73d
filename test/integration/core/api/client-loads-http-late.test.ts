/**
 * The platform client loads ky (whose import builds a Request to probe fetch, loading Node's
 * undici, ~100 ms) at its first request, not with the core: a start answering its first search
 * from the cache does not pay for it. A real Node process imports the client, makes one and
 * lists the internal modules it loaded; then one request loads it.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const CLIENT = fileURLToPath(
  new URL('../../../../src-main/core/api/platform-client.ts', import.meta.url),
);

/** Runs `body` in a fresh Node (with tsx) after making a client; prints what it printed. */
function inFreshNode(body: string): unknown {
  const script = `
    import { PlatformClient } from ${JSON.stringify(CLIENT)};
    const undiciLoaded = () => process.moduleLoadList.some((name) => name.includes('undici'));
    const client = new PlatformClient({
      baseUrl: 'http://127.0.0.1:9/',
      tokens: { authorized: (send) => send('token', 'http://127.0.0.1:9/') },
      log: { debug() {}, info() {}, warn() {}, error() {} },
      retry: { limit: 0, baseDelayMs: 1, maxDelayMs: 1 },
    });
    ${body}`;
  const out = execFileSync(
    process.execPath,
    ['--import', 'tsx', '--input-type=module', '--eval', script],
    { encoding: 'utf8', timeout: 60_000 },
  );
  return JSON.parse(out.trim().split('\n').at(-1)!);
}

describe('the platform client', () => {
  it('does not load fetch (undici) until its first request', () => {
    const seen = inFreshNode(`
      const before = undiciLoaded();
      const failed = await client
        .request({ method: 'get', path: 'v3/phonebooks/', scope: 'phonebook', schema: undefined })
        .then(() => 'answered', (error) => error.code);
      console.log(JSON.stringify({ before, after: undiciLoaded(), failed }));
    `);
    // Port 9 on 127.0.0.1 refuses the connection: the request went out through fetch.
    expect(seen).toEqual({ before: false, after: true, failed: 'network' });
  });
});
