/**
 * POST /v3/call_control/ (contract 4.6): `{command, user: {tenant_id, user_extension}, payload}`.
 * The body is validated first (400 with attrs such as payload.destination), then authorization:
 * click-to-dial needs the authenticated user to be user.tenant_id/user.user_extension; hangup also
 * needs them to be an active participant of the leg's call (otherwise 403). Success answers
 * follow the configured variant (default 202 {call_id, call_leg_id}).
 */
import { ApiError, permissionDenied } from './drf-errors';
import {
  choice,
  dictionary,
  FieldProblem,
  nested,
  required,
  text,
  andThen,
  validate,
} from './drf-fields';
import { emptyResponse, isPlainObject, jsonResponse, type SimResponse } from './http';
import type { CallControlResponse } from './options';
import { normalizeDestination } from './phone-numbers';
import { requestData } from './request-data';
import type { RestContext } from './rest-context';

const COMMANDS = ['click-to-dial', 'hangup'] as const;

const destination = andThen(text({ maxLength: 64 }), (value) => {
  return (
    normalizeDestination(value) ??
    new FieldProblem('invalid', 'Enter a valid extension or phone number.')
  );
});

function payloadField(command: unknown) {
  if (command === 'click-to-dial') return required(nested({ destination: required(destination) }));
  if (command === 'hangup')
    return required(nested({ call_leg_id: required(text({ maxLength: 128 })) }));
  return required(dictionary());
}

function commandAnswer(
  variant: CallControlResponse,
  body: { call_id: string; call_leg_id: string },
): SimResponse {
  switch (variant) {
    case 'accepted':
      return jsonResponse(202, body);
    case 'ok':
      return jsonResponse(200, body);
    case 'empty':
      return emptyResponse(204);
    case 'accepted-empty':
      return emptyResponse(202);
    case 'ok-text':
      return { status: 200, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: 'OK' };
  }
}

export function handleCallControl(context: RestContext): SimResponse {
  const { platform, user } = context;
  const data = requestData(context.request);
  const rawCommand = isPlainObject(data) ? data.command : undefined;
  const body = validate(
    {
      command: required(choice(COMMANDS)),
      user: required(
        nested({
          tenant_id: required(text({ maxLength: 64 })),
          user_extension: required(text({ maxLength: 32 })),
        }),
      ),
      payload: payloadField(rawCommand),
    },
    data,
  );
  const forbidden = () =>
    platform.config.callControlForbiddenBody === 'empty'
      ? new ApiError(403, null)
      : permissionDenied();
  if (body.user.tenant_id !== user.tenantId || body.user.user_extension !== user.extension)
    throw forbidden();

  if (body.command === 'click-to-dial') {
    const payload = body.payload as { destination: string };
    const { call, leg } = platform.calls.clickToDial(user, payload.destination);
    platform.log(`click-to-dial by ${user.extension}: call ${call.id}`);
    return commandAnswer(platform.config.callControlResponse, {
      call_id: call.id,
      call_leg_id: leg.id,
    });
  }
  const payload = body.payload as { call_leg_id: string };
  const result = platform.calls.hangup(user, payload.call_leg_id);
  if (!result) throw forbidden();
  return commandAnswer(platform.config.callControlResponse, {
    call_id: result.call.id,
    call_leg_id: result.leg.id,
  });
}
