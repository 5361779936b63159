import type { Response } from 'express';
import type { Logger } from '@ratesmith/kit';

/** What the middleware chain establishes for a request, kept on res.locals. */
export interface RequestContext {
  requestId: string;
  logger: Logger;
  /** The verified shop; set by the session middleware on /api routes. */
  shop?: string;
  /** The staff user of the session token (`sub`); set with shop. */
  user?: string;
}

export function ctx(res: Response): RequestContext {
  return res.locals as RequestContext;
}

/** The verified shop of an /api request (the session middleware ran before). */
export function shopOf(res: Response): string {
  const shop = ctx(res).shop;
  if (!shop) throw new Error('session middleware did not run');
  return shop;
}

/** The staff user of an /api request, recorded with the versions it saves. */
export function userOf(res: Response): string {
  return ctx(res).user ?? '';
}

/** Options for a NATS call made on behalf of this request: its id travels along. */
export function traced(res: Response): { requestId: string } {
  return { requestId: ctx(res).requestId };
}
