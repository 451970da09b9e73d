/**
 * A loopback port the user's browser must reach (the receiver the portal redirects to, the web
 * preview): 1024–65535, and none the browser refuses (http/browser-refused-ports.ts). A refused
 * port is its own issue, so each place a value enters (the settings file, an environment
 * variable, a policy, a command-line option) says why, not just the range.
 */
import { z } from 'zod';
import { acceptedPortAbove, browserRefusesPort } from '../http/browser-refused-ports';
import { said, type Said } from '../text/said';

/** The issue param carrying a port browsers refuse. */
const REFUSED_PORT = 'browser_refused_port';

export const LocalPort = z
  .int()
  .min(1024)
  .max(65535)
  .superRefine((port, context) => {
    if (port < 1024 || port > 65535 || !browserRefusesPort(port)) return;
    context.addIssue({
      code: 'custom',
      message: `browsers refuse to connect to port ${port}`,
      params: { [REFUSED_PORT]: port },
    });
  });

/** The port browsers refuse that `issue` is about, if it is about one. */
export function refusedPortOf(issue: z.ZodError['issues'][number]): number | undefined {
  if (issue.code !== 'custom') return undefined;
  const port = issue.params?.[REFUSED_PORT] as unknown;
  return typeof port === 'number' ? port : undefined;
}

/** The port browsers refuse among `error`'s issues, if any. */
export function refusedPortIn(error: z.ZodError): number | undefined {
  for (const issue of error.issues) {
    const port = refusedPortOf(issue);
    if (port !== undefined) return port;
  }
  return undefined;
}

/**
 * Why `port` cannot be used, and which to use instead, as a phrase ("web browsers refuse to
 * connect to port 10080 (…); choose another port, such as 10081").
 */
export function whyPortRefused(port: number): Said {
  return said('errors:ports.refusedByBrowsers', { port, suggestion: acceptedPortAbove(port) });
}

/**
 * A command line's port option (`--port 8080`): the port, 0 (any free port) when `anyAllowed`,
 * or why not as a sentence (not a port; one browsers refuse, with another to take).
 */
export function readPortOption(text: string, option: string, anyAllowed: boolean): number | Said {
  const value = /^\d{1,5}$/.test(text) ? Number(text) : Number.NaN;
  if (anyAllowed && value === 0) return 0;
  const parsed = LocalPort.safeParse(value);
  if (parsed.success) return parsed.data;
  const refused = refusedPortIn(parsed.error);
  if (refused !== undefined) {
    return said('errors:ports.optionRefused', {
      option,
      port: refused,
      why: whyPortRefused(refused),
    });
  }
  return said(anyAllowed ? 'errors:ports.optionNotPortOrAny' : 'errors:ports.optionNotPort', {
    option,
    value: text,
  });
}
