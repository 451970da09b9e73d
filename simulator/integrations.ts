/**
 * Integrator registrations (per slug: Activation, Deactivation and Webhook URLs, extra headers,
 * body encoding) and the per-user activation records the service holds (contract 2.2 and 3):
 * state, the confirmation key, and the tenant_{param} metadata stored at the first activation.
 */
import { z } from 'zod';
import type { IntegrationOptions } from './options';
import { DeliverySigning } from './signed-deliveries';

const absoluteHttpUrl = z.string().refine(
  (value) => {
    try {
      const url = new URL(value);
      return url.protocol === 'http:' || url.protocol === 'https:';
    } catch {
      return false;
    }
  },
  { message: 'Enter an absolute http(s) URL.' },
);

const headerName = z.string().regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, 'Not a valid header name.');
const headerValue = z.string().regex(/^[^\r\n\0]*$/, 'Not a valid header value.');

export const IntegrationRegistrationInput = z.strictObject({
  activation_url: absoluteHttpUrl,
  deactivation_url: absoluteHttpUrl,
  webhook_url: absoluteHttpUrl.nullable().optional(),
  extra_headers: z.record(headerName, headerValue).optional(),
  encoding: z.enum(['json', 'form']).optional(),
  signing: DeliverySigning.nullable().optional(),
});

export interface Registration {
  slug: string;
  activation_url: string;
  deactivation_url: string;
  webhook_url: string | null;
  extra_headers: Record<string, string>;
  encoding: 'json' | 'form';
  /** How every call's body is signed; null: not signed. */
  signing: DeliverySigning | null;
}

export interface ActivationRecord {
  tenant_id: string;
  user_extension: string;
  state: 'active' | 'deactivated';
  confirmation_key: string;
  tenant_metadata: Record<string, string>;
  activated_at: string | null;
  deactivated_at: string | null;
}

export interface HandshakeAttempt {
  seq: number;
  time: string;
  action: 'activate' | 'deactivate';
  tenant_id: string;
  user_extension: string;
  url: string;
  /** The integrator's HTTP status; null if it could not be reached. */
  status: number | null;
  outcome: 'accepted' | 'refused' | 'unreachable';
  answer: string;
}

export interface WebhookTarget {
  slug: string;
  url: string;
  headers: Record<string, string>;
  signing: DeliverySigning | null;
}

export function isValidSlug(slug: string): boolean {
  return /^[a-z0-9]+(?:[-_][a-z0-9]+)*$/.test(slug);
}

export class IntegrationRegistry {
  private readonly registrations = new Map<string, Registration>();
  private readonly records = new Map<string, ActivationRecord[]>();
  private readonly attempts = new Map<string, HandshakeAttempt[]>();
  private nextSeq = 1;

  /** `defaultEncoding`: of the activation/deactivation calls when a registration names none. */
  constructor(private readonly defaultEncoding: 'json' | 'form' = 'json') {}

  register(slug: string, options: IntegrationOptions): Registration {
    const parsed = IntegrationRegistrationInput.parse(options);
    const registration: Registration = {
      slug,
      activation_url: parsed.activation_url,
      deactivation_url: parsed.deactivation_url,
      webhook_url: parsed.webhook_url ?? null,
      extra_headers: { ...parsed.extra_headers },
      encoding: parsed.encoding ?? this.defaultEncoding,
      signing: parsed.signing ?? null,
    };
    this.registrations.set(slug, registration);
    return registration;
  }

  get(slug: string): Registration | undefined {
    return this.registrations.get(slug);
  }

  slugs(): string[] {
    return [...this.registrations.keys()];
  }

  recordsOf(slug: string): ActivationRecord[] {
    return (this.records.get(slug) ?? []).map((record) => ({
      ...record,
      tenant_metadata: { ...record.tenant_metadata },
    }));
  }

  /** Every slug's activation records, as plain data (state-file.ts keeps them across runs). */
  snapshotRecords(): [string, ActivationRecord[]][] {
    return [...this.records.keys()].map((slug) => [slug, this.recordsOf(slug)]);
  }

  restoreRecords(snapshot: [string, ActivationRecord[]][]): void {
    for (const [slug, records] of snapshot) this.records.set(slug, records);
  }

  attemptsOf(slug: string): HandshakeAttempt[] {
    return [...(this.attempts.get(slug) ?? [])];
  }

  record(slug: string, tenantId: string, extension: string): ActivationRecord | undefined {
    return this.records
      .get(slug)
      ?.find((record) => record.tenant_id === tenantId && record.user_extension === extension);
  }

  noteAttempt(slug: string, attempt: Omit<HandshakeAttempt, 'seq'>): void {
    const list = this.attempts.get(slug) ?? [];
    list.push({ seq: this.nextSeq++, ...attempt });
    if (list.length > 1000) list.shift();
    this.attempts.set(slug, list);
  }

  /** Marks the user's integration active; metadata is kept only from the first activation. */
  activate(
    slug: string,
    tenantId: string,
    extension: string,
    confirmationKey: string,
    metadata: Record<string, string>,
    time: string,
  ): ActivationRecord {
    const existing = this.record(slug, tenantId, extension);
    if (existing) {
      existing.state = 'active';
      existing.confirmation_key = confirmationKey;
      existing.activated_at = time;
      existing.deactivated_at = null;
      return existing;
    }
    const record: ActivationRecord = {
      tenant_id: tenantId,
      user_extension: extension,
      state: 'active',
      confirmation_key: confirmationKey,
      tenant_metadata: { ...metadata },
      activated_at: time,
      deactivated_at: null,
    };
    this.records.set(slug, [...(this.records.get(slug) ?? []), record]);
    return record;
  }

  deactivate(slug: string, tenantId: string, extension: string, time: string): void {
    const record = this.record(slug, tenantId, extension);
    if (!record) return;
    record.state = 'deactivated';
    record.deactivated_at = time;
  }

  /** Where call events for this user go: every slug with a Webhook URL and an active record. */
  webhookTargets(tenantId: string, extension: string): WebhookTarget[] {
    const targets: WebhookTarget[] = [];
    for (const registration of this.registrations.values()) {
      if (!registration.webhook_url) continue;
      if (this.record(registration.slug, tenantId, extension)?.state !== 'active') continue;
      targets.push({
        slug: registration.slug,
        url: registration.webhook_url,
        headers: registration.extra_headers,
        signing: registration.signing,
      });
    }
    return targets;
  }
}
