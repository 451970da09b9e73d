/**
 * The test-only control API under /__sim/ (JSON in and out, no authentication, never faulted or
 * logged): the clock, tokens without the portal, calls and legs, faults, the request log, webhook
 * deliveries, hostile deliveries and events (hostile-deliveries.ts, hostile-events.ts), integrator registrations, rate limits
 * and runtime settings, and a summary of the world. Bodies are validated strictly (an unknown
 * field is a 400, so a typo is not a silent no-op).
 */
import { z } from 'zod';
import { AUTH_FAILURE_ANSWERS } from './auth-failure';
import { CallStateError } from './calls';
import {
  ApiError,
  clientError,
  methodNotAllowed,
  notFound,
  parseError,
  serverError,
  validationError,
} from './drf-errors';
import { FaultSpec } from './faults';
import { hostileDeliveryRoutes } from './hostile-deliveries';
import { HostileEventsInput } from './hostile-events';
import { HostileSpec } from './hostile-platform';
import { emptyResponse, jsonResponse, type SimRequest, type SimResponse } from './http';
import { IntegrationRegistrationInput, isValidSlug } from './integrations';
import {
  CALL_CONTROL_RESPONSES,
  CALL_EVENT_DELIVERIES,
  CALL_EVENT_PAYLOADS,
  DEACTIVATION_TOKENS,
  NEXT_LINKS,
  ORDERING_TIES,
  PAGE_SIZES_ABOVE_MAX,
  RATE_SCOPES,
  resolveAutoAnswer,
  type RateScope,
} from './options';
import type { IntegrationState, WebhookLog, WorldSummary } from './control-types';
import type { Platform } from './platform';

const RateLimitInput = z.strictObject({
  limit: z.number().int().min(0),
  window_seconds: z.number().positive(),
});

const inputs = {
  advance: z.strictObject({ seconds: z.number().finite() }),
  set: z.strictObject({ now: z.iso.datetime({ offset: true }) }),
  tokens: z.strictObject({
    tenant_id: z.string().min(1),
    user_extension: z.string().min(1),
    /** The integration the pair belongs to (its deactivation revokes it); none by default. */
    slug: z.string().refine(isValidSlug, 'Enter a valid slug.').nullable().optional(),
  }),
  incoming: z.strictObject({
    tenant_id: z.string().min(1),
    user_extension: z.string().min(1),
    from: z.string().min(1).max(64),
  }),
  rateLimits: z.strictObject({
    phonebook: RateLimitInput.optional(),
    'call-control': RateLimitInput.optional(),
  }),
  config: z.strictObject({
    callEventPayload: z.enum(CALL_EVENT_PAYLOADS).optional(),
    tokenAnswerScope: z.boolean().optional(),
    callControlResponse: z.enum(CALL_CONTROL_RESPONSES).optional(),
    callControlForbiddenBody: z.enum(['drf', 'empty']).optional(),
    autoAnswer: z
      .union([
        z.boolean(),
        z.strictObject({
          userAnswerMs: z.number().int().min(0).optional(),
          destinationAnswerMs: z.number().int().min(0).optional(),
          hangupAfterMs: z.number().int().min(0).nullable().optional(),
        }),
      ])
      .optional(),
    maxPageSize: z.number().int().min(1).optional(),
    authFailure: z.enum(AUTH_FAILURE_ANSWERS).optional(),
    uniqueNumberError: z.enum(['field', 'non_field_errors']).optional(),
    activationCalls: z.number().int().min(1).max(5).optional(),
    callEventDelivery: z.enum(CALL_EVENT_DELIVERIES).optional(),
    orderingTies: z.enum(ORDERING_TIES).optional(),
    pageSizeAboveMax: z.enum(PAGE_SIZES_ABOVE_MAX).optional(),
    nextLinks: z.enum(NEXT_LINKS).optional(),
    deactivationTokens: z.enum(DEACTIVATION_TOKENS).optional(),
  }),
};

function parse<T extends z.ZodType>(schema: T, request: SimRequest): z.output<T> {
  let data: unknown = {};
  if (request.body.length > 0) {
    try {
      data = JSON.parse(request.body.toString('utf8'));
    } catch (error) {
      throw parseError(error instanceof Error ? error.message : 'invalid JSON');
    }
  }
  const result = schema.safeParse(data);
  if (!result.success) {
    throw validationError(
      result.error.issues.map((issue) => ({
        code: issue.code,
        detail: issue.message,
        attr: issue.path.map(String).join('.') || null,
      })),
    );
  }
  return result.data;
}

type Handler = (request: SimRequest, params: string[]) => SimResponse;

export class ControlApi {
  private readonly routes: { pattern: RegExp; methods: Record<string, Handler> }[];

  constructor(private readonly platform: Platform) {
    const p = platform;
    this.routes = [
      { pattern: /^\/__sim\/?$/, methods: { GET: () => jsonResponse(200, this.index()) } },
      { pattern: /^\/__sim\/clock$/, methods: { GET: () => this.clock() } },
      {
        pattern: /^\/__sim\/clock\/advance$/,
        methods: {
          POST: (request) => {
            p.clock.advance(parse(inputs.advance, request).seconds);
            return this.clock();
          },
        },
      },
      {
        pattern: /^\/__sim\/clock\/set$/,
        methods: {
          POST: (request) => {
            p.clock.set(Date.parse(parse(inputs.set, request).now));
            return this.clock();
          },
        },
      },
      {
        pattern: /^\/__sim\/tokens$/,
        methods: {
          POST: (request) => {
            const body = parse(inputs.tokens, request);
            const user = p.world.userByExtension(body.tenant_id, body.user_extension);
            if (!user)
              throw notFound(`No user ${body.user_extension} in tenant ${body.tenant_id}.`);
            return jsonResponse(
              201,
              p.tokens.issue({
                tenantId: user.tenantId,
                extension: user.extension,
                integration: body.slug ?? null,
              }),
            );
          },
        },
      },
      { pattern: /^\/__sim\/world$/, methods: { GET: () => jsonResponse(200, this.world()) } },
      { pattern: /^\/__sim\/calls$/, methods: { GET: () => jsonResponse(200, p.calls.list()) } },
      {
        pattern: /^\/__sim\/calls\/incoming$/,
        methods: {
          POST: (request) => {
            const body = parse(inputs.incoming, request);
            const user = p.world.userByExtension(body.tenant_id, body.user_extension);
            if (!user)
              throw notFound(`No user ${body.user_extension} in tenant ${body.tenant_id}.`);
            return jsonResponse(201, p.calls.incoming(user.tenantId, user.extension, body.from));
          },
        },
      },
      {
        pattern: /^\/__sim\/calls\/([^/]+)$/,
        methods: {
          GET: (_request, [id = '']) => {
            const call = p.calls
              .list()
              .find((each) => each.id === id || each.legs.some((leg) => leg.id === id));
            if (!call) throw notFound(`No call or call leg ${id}.`);
            return jsonResponse(200, call);
          },
        },
      },
      {
        pattern: /^\/__sim\/calls\/([^/]+)\/(answer|end)$/,
        methods: {
          POST: (_request, [leg = '', action]) =>
            jsonResponse(200, action === 'answer' ? p.calls.answer(leg) : p.calls.end(leg)),
        },
      },
      {
        pattern: /^\/__sim\/faults$/,
        methods: {
          GET: () => jsonResponse(200, p.faults.list()),
          POST: (request) => jsonResponse(201, p.faults.add(parse(FaultSpec, request))),
          DELETE: () => {
            p.faults.clear();
            return emptyResponse(204);
          },
        },
      },
      {
        pattern: /^\/__sim\/faults\/([^/]+)$/,
        methods: {
          DELETE: (_request, [id = '']) => {
            if (!p.faults.remove(id)) throw notFound(`No fault ${id}.`);
            return emptyResponse(204);
          },
        },
      },
      {
        pattern: /^\/__sim\/hostile$/,
        methods: {
          GET: () => jsonResponse(200, p.hostile.status()),
          POST: (request) => jsonResponse(201, p.hostile.set(parse(HostileSpec, request))),
          DELETE: () => {
            p.hostile.clear();
            return emptyResponse(204);
          },
        },
      },
      {
        pattern: /^\/__sim\/requests$/,
        methods: {
          GET: () => jsonResponse(200, p.requestLog.list()),
          DELETE: () => {
            p.requestLog.clear();
            return emptyResponse(204);
          },
        },
      },
      {
        pattern: /^\/__sim\/webhooks$/,
        methods: {
          GET: () => {
            const log: WebhookLog = {
              in_flight: p.webhooks.inFlight(),
              deliveries: p.webhooks.list(),
            };
            return jsonResponse(200, log);
          },
          DELETE: () => {
            p.webhooks.clear();
            return emptyResponse(204);
          },
        },
      },
      ...hostileDeliveryRoutes(p),
      {
        pattern: /^\/__sim\/integrations$/,
        methods: {
          GET: () =>
            jsonResponse(
              200,
              p.integrations.slugs().map((slug) => this.integration(slug)),
            ),
        },
      },
      {
        pattern: /^\/__sim\/integrations\/([^/]+)$/,
        methods: {
          GET: (_request, [slug = '']) => {
            if (!p.integrations.get(slug)) throw notFound(`No integration ${slug}.`);
            return jsonResponse(200, this.integration(slug));
          },
          PUT: (request, [slug = '']) => {
            if (!isValidSlug(slug)) {
              throw validationError([
                { code: 'invalid', detail: 'Enter a valid slug.', attr: 'slug' },
              ]);
            }
            p.integrations.register(slug, parse(IntegrationRegistrationInput, request));
            return jsonResponse(200, this.integration(slug));
          },
        },
      },
      {
        pattern: /^\/__sim\/hostile\/events$/,
        methods: {
          GET: () => jsonResponse(200, p.hostileEvents.tally()),
          POST: (request) => {
            const body = parse(HostileEventsInput, request);
            const tally = p.hostileEvents.start(body);
            if (!tally) throw notFound(`User ${body.user_extension} has no active Webhook URL.`);
            return jsonResponse(202, tally);
          },
        },
      },
      {
        pattern: /^\/__sim\/rate-limits$/,
        methods: {
          GET: () => jsonResponse(200, p.rateLimiter.current()),
          PUT: (request) => {
            const body = parse(inputs.rateLimits, request);
            const limits: Partial<Record<RateScope, { limit: number; window_seconds: number }>> =
              {};
            for (const scope of RATE_SCOPES) {
              const limit = body[scope];
              if (limit) limits[scope] = limit;
            }
            p.rateLimiter.set(limits);
            p.rateLimiter.reset();
            return jsonResponse(200, p.rateLimiter.current());
          },
        },
      },
      {
        pattern: /^\/__sim\/config$/,
        methods: {
          GET: () => jsonResponse(200, p.config),
          PATCH: (request) => {
            const body = parse(inputs.config, request);
            if (body.callEventPayload) p.config.callEventPayload = body.callEventPayload;
            if (body.tokenAnswerScope !== undefined)
              p.config.tokenAnswerScope = body.tokenAnswerScope;
            if (body.callControlResponse) p.config.callControlResponse = body.callControlResponse;
            if (body.callControlForbiddenBody)
              p.config.callControlForbiddenBody = body.callControlForbiddenBody;
            if (body.autoAnswer !== undefined)
              p.config.autoAnswer = resolveAutoAnswer(body.autoAnswer);
            if (body.maxPageSize !== undefined) p.config.maxPageSize = body.maxPageSize;
            if (body.authFailure) p.config.authFailure = body.authFailure;
            if (body.uniqueNumberError) p.config.uniqueNumberError = body.uniqueNumberError;
            if (body.activationCalls) p.config.activationCalls = body.activationCalls;
            if (body.callEventDelivery) p.config.callEventDelivery = body.callEventDelivery;
            if (body.orderingTies) p.config.orderingTies = body.orderingTies;
            if (body.pageSizeAboveMax) p.config.pageSizeAboveMax = body.pageSizeAboveMax;
            if (body.nextLinks) p.config.nextLinks = body.nextLinks;
            if (body.deactivationTokens) p.config.deactivationTokens = body.deactivationTokens;
            return jsonResponse(200, p.config);
          },
        },
      },
    ];
  }

  handle(request: SimRequest): SimResponse {
    try {
      for (const route of this.routes) {
        const match = route.pattern.exec(request.path);
        if (!match) continue;
        const handler = route.methods[request.method];
        if (!handler) throw methodNotAllowed(request.method, Object.keys(route.methods));
        return handler(
          request,
          match.slice(1).map((part) => decodeURIComponent(part)),
        );
      }
      throw notFound();
    } catch (error) {
      if (error instanceof ApiError) return error.toResponse();
      if (error instanceof CallStateError) {
        return (
          error.code === 'not_found'
            ? notFound(error.message)
            : clientError(409, 'invalid_state', error.message)
        ).toResponse();
      }
      this.platform.log(`control API error on ${request.method} ${request.path}: ${String(error)}`);
      return serverError().toResponse();
    }
  }

  private clock(): SimResponse {
    return jsonResponse(200, { now: this.platform.clock.nowIso() });
  }

  private integration(slug: string): IntegrationState | undefined {
    const { integrations } = this.platform;
    const registration = integrations.get(slug);
    if (!registration) return undefined;
    return {
      ...registration,
      activations: integrations.recordsOf(slug),
      attempts: integrations.attemptsOf(slug),
    };
  }

  private world(): WorldSummary {
    const { world } = this.platform;
    return {
      tenants: world.tenants,
      users: world.users.map((user) => ({
        id: user.id,
        tenant_id: user.tenantId,
        username: user.username,
        password: user.password,
        full_name: user.fullName,
        extension: user.extension,
        can_view_all_phonebooks: user.canViewAllPhonebooks,
      })),
      phonebooks: [...world.phonebooks.values()].map((phonebook) => ({
        id: phonebook.id,
        tenant_id: phonebook.tenantId,
        description: phonebook.description,
        is_shared: phonebook.isShared,
        owners: phonebook.ownerIds,
        contact_count: [...world.contacts.values()].filter(
          (contact) => contact.phonebookId === phonebook.id,
        ).length,
        device_ids: world.devicesUsingPhonebook(phonebook.id).map((device) => device.id),
      })),
      contact_count: world.contacts.size,
      devices: world.devices.map((device) => ({
        id: device.id,
        tenant_id: device.tenantId,
        name: device.name,
        mac: device.mac,
        phonebook_ids: device.phonebookIds,
      })),
      call_queues: world.callQueues.map(groupView),
      call_flows: world.callFlows.map(groupView),
      voicemail_boxes: world.voicemailBoxes.map((box) => ({
        id: box.id,
        tenant_id: box.tenantId,
        name: box.name,
        extension: box.extension,
      })),
    };
  }

  private index() {
    return {
      simulator: 'Callbar platform simulator — control API (test-only)',
      endpoints: this.routes.map((route) => ({
        path: route.pattern.source.replace(/\\\//g, '/'),
        methods: Object.keys(route.methods),
      })),
    };
  }
}

function groupView(group: {
  id: number;
  tenantId: string;
  name: string;
  extension: number;
  contactIds: number[];
}) {
  return {
    id: group.id,
    tenant_id: group.tenantId,
    name: group.name,
    extension: group.extension,
    contact_ids: group.contactIds,
  };
}
