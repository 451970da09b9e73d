/**
 * Core's one list of the ports browsers refuse is the list Node's fetch enforces (the Fetch
 * standard's "bad ports"): every port on it is refused before any connection ("bad port"), and
 * the ports suggested instead are not.
 */
import { describe, expect, it } from 'vitest';
import {
  acceptedPortAbove,
  BROWSER_REFUSED_PORTS,
  browserRefusesPort,
} from '../../../../src-main/core/http/browser-refused-ports';

/** Why fetch refused `port` on this computer, or "connected" when it tried to connect. */
async function fetchOutcome(port: number): Promise<string> {
  try {
    await fetch(`http://127.0.0.1:${port}/`, { signal: AbortSignal.timeout(2000) });
    return 'connected';
  } catch (error) {
    const cause = (error as { cause?: { message?: string } }).cause?.message ?? '';
    return cause === 'bad port' ? 'bad port' : 'connected';
  }
}

describe('the ports browsers refuse', () => {
  it("are the ports Node's fetch refuses", async () => {
    expect(BROWSER_REFUSED_PORTS).toContain(10080);
    for (const port of BROWSER_REFUSED_PORTS)
      expect(await fetchOutcome(port), String(port)).toBe('bad port');
  });

  it('suggests the next port a browser accepts', async () => {
    expect(acceptedPortAbove(10080)).toBe(10081);
    expect(acceptedPortAbove(6665)).toBe(6670);
    for (const port of BROWSER_REFUSED_PORTS) {
      const suggestion = acceptedPortAbove(port);
      expect(browserRefusesPort(suggestion)).toBe(false);
      expect(await fetchOutcome(suggestion), String(suggestion)).toBe('connected');
    }
  });
});
