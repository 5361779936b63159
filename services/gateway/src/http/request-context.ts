import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';
import type { Logger } from '@ratesmith/kit';
import { ctx } from './context';

const REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

/**
 * Gives each request an id (the caller's x-request-id when well formed),
 * echoes it, and logs one line when the response is sent. Only the path is
 * logged: query strings can carry hmac values and id tokens.
 */
export function requestContext(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const given = req.headers['x-request-id'];
    const requestId = typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    res.setHeader('x-request-id', requestId);
    const context = ctx(res);
    context.requestId = requestId;
    context.logger = logger.child({ request_id: requestId });
    const started = performance.now();
    res.on('finish', () => {
      context.logger.info(
        {
          method: req.method,
          path: req.path,
          status: res.statusCode,
          ms: Math.round(performance.now() - started),
        },
        'request',
      );
    });
    next();
  };
}
