/**
 * Injected faults, per route: a status (with an optional body), a delay, a connection reset, a
 * malformed (invalid JSON) body, any of them with a probability (seeded) and a count after which
 * the fault disappears. `when: "before"` replaces the processing; `when: "after"` lets the
 * request take effect and then loses or corrupts the answer (the call was placed, the reply lost).
 */
import { z } from 'zod';
import { errorBody } from './drf-errors';
import type { SimResponse } from './http';
import type { SeededRandom } from './random';

export const FaultSpec = z
  .strictObject({
    method: z
      .string()
      .min(1)
      .transform((method) => method.toUpperCase())
      .optional(),
    path: z.string().startsWith('/'),
    match: z.enum(['prefix', 'exact']).default('prefix'),
    status: z.number().int().min(100).max(599).optional(),
    body: z.unknown().optional(),
    headers: z.record(z.string(), z.string()).optional(),
    delay_ms: z.number().int().min(0).max(600_000).optional(),
    reset: z.boolean().optional(),
    malformed: z.boolean().optional(),
    probability: z.number().min(0).max(1).optional(),
    count: z.number().int().min(1).optional(),
    when: z.enum(['before', 'after']).default('before'),
  })
  .refine(
    (spec) =>
      spec.status !== undefined ||
      spec.delay_ms !== undefined ||
      spec.reset === true ||
      spec.malformed === true,
    { message: 'A fault needs at least one of status, delay_ms, reset or malformed.' },
  );
export type FaultSpec = z.input<typeof FaultSpec>;
type ParsedFaultSpec = z.output<typeof FaultSpec>;

export interface Fault extends ParsedFaultSpec {
  id: string;
  /** Applications left; null: unlimited. */
  remaining: number | null;
  hits: number;
}

export type FaultEffect = 'delay' | 'status' | 'reset' | 'malformed';

export function faultEffects(fault: Fault): FaultEffect[] {
  const effects: FaultEffect[] = [];
  if (fault.delay_ms !== undefined) effects.push('delay');
  if (fault.reset) effects.push('reset');
  else if (fault.malformed) effects.push('malformed');
  else if (fault.status !== undefined) effects.push('status');
  return effects;
}

export class FaultTable {
  private faults: Fault[] = [];
  private nextId = 1;

  constructor(private readonly random: SeededRandom) {}

  add(spec: ParsedFaultSpec): Fault {
    const fault: Fault = {
      ...spec,
      id: `fault-${this.nextId++}`,
      remaining: spec.count ?? null,
      hits: 0,
    };
    this.faults.push(fault);
    return fault;
  }

  list(): Fault[] {
    return this.faults.map((fault) => ({ ...fault }));
  }

  remove(id: string): boolean {
    const before = this.faults.length;
    this.faults = this.faults.filter((fault) => fault.id !== id);
    return this.faults.length < before;
  }

  clear(): void {
    this.faults = [];
  }

  /** The first fault that matches and fires for this request (uses up one of its count). */
  take(method: string, path: string): Fault | undefined {
    for (const fault of this.faults) {
      if (fault.method !== undefined && fault.method !== method) continue;
      if (fault.match === 'exact' ? path !== fault.path : !path.startsWith(fault.path)) continue;
      if (fault.probability !== undefined && !(this.random.next() < fault.probability)) continue;
      fault.hits++;
      if (fault.remaining !== null) {
        fault.remaining--;
        if (fault.remaining <= 0) this.remove(fault.id);
      }
      return { ...fault };
    }
    return undefined;
  }
}

/** The answer a status or malformed fault sends instead of (or in place of) the real one. */
export function faultResponse(fault: Fault, original?: SimResponse): SimResponse {
  if (fault.malformed) {
    return {
      status: fault.status ?? 200,
      headers: { 'content-type': 'application/json', ...fault.headers },
      body: malformedBody(original?.body),
    };
  }
  const status = fault.status ?? 500;
  const headers: Record<string, string> = { ...fault.headers };
  if (
    status === 429 &&
    !Object.keys(headers).some((name) => name.toLowerCase() === 'retry-after')
  ) {
    headers['retry-after'] = '1';
  }
  let body: string | undefined;
  if (fault.body === undefined) {
    if (status !== 204 && status !== 304) {
      body = JSON.stringify(
        errorBody(
          status >= 500 ? 'server_error' : 'client_error',
          status >= 500 ? 'error' : 'injected_fault',
          `Injected fault (HTTP ${status}).`,
        ),
      );
    }
  } else if (typeof fault.body === 'string') {
    body = fault.body;
  } else {
    body = JSON.stringify(fault.body);
  }
  const hasType = Object.keys(headers).some((name) => name.toLowerCase() === 'content-type');
  if (body !== undefined && !hasType) headers['content-type'] = 'application/json';
  return { status, headers, body };
}

/** The first half of the real JSON body (or a fixed fragment): never valid JSON. */
function malformedBody(original: string | Buffer | undefined): string {
  const text = original === undefined ? '' : original.toString();
  const cut = text.slice(0, Math.max(1, Math.floor(text.length / 2)));
  if (cut.length > 1 && !isJson(cut)) return cut;
  return '{"detail": "truncat';
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
