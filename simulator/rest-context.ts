/** What a REST handler gets: the platform, the request, the authenticated user and path params. */
import { notFound } from './drf-errors';
import type { SimRequest } from './http';
import type { Platform } from './platform';
import type { User } from './world';

export interface RestContext {
  platform: Platform;
  request: SimRequest;
  user: User;
  params: Record<string, string>;
}

/** A positive integer path id, or 404 as Django's get_object_or_404 answers a bad pk. */
export function pathId(context: RestContext, notFoundDetail: string): number {
  const raw = context.params.id ?? '';
  if (!/^\d+$/.test(raw)) throw notFound(notFoundDetail);
  return Number(raw);
}
