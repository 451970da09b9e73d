/**
 * The `hostile` behaviour: the simulated platform turns malicious or broken on demand, so the
 * attacks Callbar must survive stay in the suite (issue 24). Set with POST /__sim/hostile, cleared
 * with DELETE /__sim/hostile; while set, it answers the contacts list (GET /v3/phonebook/contact/)
 * in place of the real one:
 * - `endless-pages`: every page links to one more, each with new contacts, `count` unchanged;
 * - `foreign-next`: the first page's `next` points to another origin (`to`);
 * - `oversized-fields`: `contacts` contacts whose display_name and company are `field_chars`
 *   characters long (and the number `number_chars` digits, if given), `page_size` a page, in
 *   every phonebook's list or only `phonebook`'s;
 * - `undercounted`: `contacts` contacts, `page_size` a page, each page's `count` saying `count`
 *   (more than there are: a platform counting rows it does not list), in `phonebook`'s list.
 * Redirects to another origin are faults (`redirectFault`); the other origin is a ForeignOrigin,
 * a second local server that records what reached it.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { z } from 'zod';
import type { FaultSpec } from './faults';
import { jsonResponse, readBody, type SimRequest, type SimResponse } from './http';

export const HostileSpec = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('endless-pages'),
    /** The `count` every page claims. */
    count: z.number().int().min(0).default(2),
    page_size: z.number().int().min(1).max(1000).default(1),
  }),
  z.strictObject({ kind: z.literal('foreign-next'), to: z.url() }),
  z.strictObject({
    kind: z.literal('oversized-fields'),
    contacts: z.number().int().min(1).max(10_000).default(100),
    field_chars: z
      .number()
      .int()
      .min(1)
      .max(50 * 1024 * 1024)
      .default(1024 * 1024),
    page_size: z.number().int().min(1).max(1000).default(5),
    /** Only this phonebook's list (all of them by default); the others answer normally. */
    phonebook: z.number().int().optional(),
    /** Also a `number` this many digits long (a normal number by default). */
    number_chars: z
      .number()
      .int()
      .min(1)
      .max(1024 * 1024)
      .optional(),
  }),
  z.strictObject({
    kind: z.literal('undercounted'),
    contacts: z.number().int().min(0).max(10_000).default(10),
    count: z.number().int().min(0).default(12),
    page_size: z.number().int().min(1).max(1000).default(5),
    phonebook: z.number().int(),
  }),
]);
export type HostileSpec = z.input<typeof HostileSpec>;
type ParsedHostileSpec = z.output<typeof HostileSpec>;

const CONTACT_LIST = '/v3/phonebook/contact/';

/** The behaviour in force (none by default) and its answers. */
export class HostileBehaviour {
  private spec: ParsedHostileSpec | null = null;
  /** Contacts-list pages it answered since it was set. */
  pagesServed = 0;

  set(spec: ParsedHostileSpec): { kind: string } {
    this.spec = spec;
    this.pagesServed = 0;
    return { kind: spec.kind };
  }

  clear(): void {
    this.spec = null;
  }

  status(): { kind: string | null; pages_served: number } {
    return { kind: this.spec?.kind ?? null, pages_served: this.pagesServed };
  }

  /** The hostile answer to `request`, or undefined to let the platform answer. */
  answer(request: SimRequest, origin: string): SimResponse | undefined {
    const spec = this.spec;
    if (!spec || request.method !== 'GET' || request.path !== CONTACT_LIST) return undefined;
    const page = Math.max(1, Number(request.query.get('page') ?? 1) || 1);
    const phonebook = Number(request.query.get('phonebook') ?? 1) || 1;
    if (spec.kind === 'oversized-fields' && (spec.phonebook ?? phonebook) !== phonebook) {
      return undefined;
    }
    if (spec.kind === 'undercounted' && spec.phonebook !== phonebook) return undefined;
    const link = (n: number) => `${origin}${CONTACT_LIST}?page=${n}&phonebook=${phonebook}`;
    this.pagesServed++;
    switch (spec.kind) {
      case 'endless-pages': {
        const first = (page - 1) * spec.page_size;
        const results = Array.from({ length: spec.page_size }, (_, i) =>
          contact(phonebook, first + i, `Endless ${first + i}`),
        );
        return jsonResponse(200, {
          count: spec.count,
          next: link(page + 1),
          previous: null,
          results,
        });
      }
      case 'foreign-next':
        return jsonResponse(200, {
          count: 2,
          next: `${spec.to.replace(/\/$/, '')}${CONTACT_LIST}?page=2&phonebook=${phonebook}`,
          previous: null,
          results: [contact(phonebook, 0, 'Local contact')],
        });
      case 'oversized-fields': {
        const first = (page - 1) * spec.page_size;
        const size = Math.max(0, Math.min(spec.page_size, spec.contacts - first));
        const long = 'W'.repeat(spec.field_chars);
        const results = Array.from({ length: size }, (_, i) => ({
          ...contact(phonebook, first + i, long),
          company: long,
          ...(spec.number_chars ? { number: '4'.repeat(spec.number_chars) } : {}),
        }));
        const next = first + size < spec.contacts ? link(page + 1) : null;
        return jsonResponse(200, { count: spec.contacts, next, previous: null, results });
      }
      case 'undercounted': {
        const first = (page - 1) * spec.page_size;
        const size = Math.max(0, Math.min(spec.page_size, spec.contacts - first));
        const results = Array.from({ length: size }, (_, i) =>
          contact(phonebook, first + i, `Counted ${first + i}`),
        );
        const next = first + size < spec.contacts ? link(page + 1) : null;
        return jsonResponse(200, { count: spec.count, next, previous: null, results });
      }
    }
  }
}

function contact(phonebook: number, n: number, name: string) {
  return {
    id: 900_000 + n,
    phonebook,
    display_name: name,
    number: `+4930${String(1_000_000 + n)}`,
    secondary_number: null,
    speed_dial: null,
    company: '',
  };
}

/** A fault that answers `path` with a redirect to the same path on `to` (another origin). */
export function redirectFault(path: string, to: string, status: 301 | 302 | 307 | 308): FaultSpec {
  return { path, status, headers: { location: `${to.replace(/\/$/, '')}${path}` } };
}

/** What reached the foreign origin. */
export interface ForeignRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * Another origin (a second server on 127.0.0.1, another port) that records every request and
 * answers it as a platform would, with a token pair or a one-contact page, to tempt a client into
 * trusting it.
 */
export class ForeignOrigin {
  readonly received: ForeignRequest[] = [];
  readonly #server: Server;
  #origin = '';

  private constructor() {
    this.#server = createServer((incoming, response) => {
      void readBody(incoming).then(({ body }) => {
        const url = new URL(incoming.url ?? '/', 'http://foreign');
        this.received.push({
          method: incoming.method ?? 'GET',
          path: url.pathname,
          headers: incoming.headers,
          body: body.toString('utf8'),
        });
        const answer = url.pathname.startsWith('/v3/oauth/')
          ? {
              access_token: 'foreign-access',
              refresh_token: 'foreign-refresh',
              expires_in: 3600,
              token_type: 'Bearer',
            }
          : { count: 1, next: null, previous: null, results: [contact(1, 99, 'Foreign contact')] };
        const text = JSON.stringify(answer);
        response.writeHead(200, {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(text),
        });
        response.end(text);
      });
    });
  }

  /** Its base URL, e.g. http://127.0.0.1:41234. */
  get origin(): string {
    return this.#origin;
  }

  static async start(): Promise<ForeignOrigin> {
    const foreign = new ForeignOrigin();
    await new Promise<void>((resolve) => foreign.#server.listen(0, '127.0.0.1', resolve));
    const address = foreign.#server.address();
    foreign.#origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    return foreign;
  }

  /**
   * Requests that carried any of `secrets` (in a header or the body) or an Authorization header:
   * what a client leaked to this origin.
   */
  leaks(secrets: readonly string[]): ForeignRequest[] {
    return this.received.filter((request) => {
      const text = JSON.stringify(request.headers) + request.body;
      return (
        request.headers.authorization !== undefined ||
        secrets.some((secret) => secret !== '' && text.includes(secret))
      );
    });
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.#server.closeAllConnections();
      this.#server.close(() => resolve());
    });
  }
}
