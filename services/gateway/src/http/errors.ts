import type { ErrorRequestHandler, RequestHandler } from 'express';
import { LIMITS, type ErrorReply } from '@ratesmith/contracts';
import { GENERIC_ERROR_MESSAGE, httpStatusOf, toAppError } from '@ratesmith/kit';
import { ctx } from './context';
import { FieldsError } from './validate';

function configTooLarge(): string {
  const mb = LIMITS.configFileBytes / (1024 * 1024);
  return `This configuration file is larger than ${mb} MB, the most one import takes: remove rulesets or product rules from it, or import it as several files.`;
}

/** body-parser's errors, which are the client's fault, by their `type`. */
const BODY_ERRORS: Record<string, [number, string]> = {
  'entity.too.large': [413, 'The request is too large.'],
  'config.too.large': [413, configTooLarge()],
  'entity.parse.failed': [400, 'The request body is not valid JSON.'],
  'entity.too.deep': [400, 'The request body is nested too deeply.'],
  'entity.nul': [400, 'Text in the request cannot contain the NUL character (U+0000).'],
  'encoding.unsupported': [415, 'The request body encoding is not supported.'],
  'charset.unsupported': [415, 'The request body charset is not supported.'],
  'request.aborted': [400, 'The request was aborted.'],
};

const INVALID_PATH = 'The request path is not valid.';

/**
 * A URL with an encoded NUL (`%00`) in its path or query is refused before any
 * route reads it: no id or search term has one (and see `jsonHasNul` in the kit).
 */
export const refuseNulInUrl: RequestHandler = (req, res, next) => {
  if (!/%00/i.test(req.originalUrl)) return next();
  res.status(400).json({ status: false, message: INVALID_PATH } satisfies ErrorReply);
};

/**
 * The one place errors become HTTP: `{status: false, message}` (plus
 * `errors` when there are several), the status from the error kind. Unknown
 * errors are logged with their cause and answered with a generic message;
 * no stack trace or internal text ever reaches the client.
 */
export const errorHandler: ErrorRequestHandler = (err, _req, res, _next) => {
  if (res.headersSent) return;
  const bodyError = BODY_ERRORS[(err as { type?: string })?.type ?? ''];
  if (bodyError) {
    res.status(bodyError[0]).json({ status: false, message: bodyError[1] } satisfies ErrorReply);
    return;
  }
  // A path parameter with a malformed percent-encoding (e.g. /api/global-rules/%E0%A4%A).
  if (err instanceof URIError) {
    res.status(400).json({ status: false, message: INVALID_PATH } satisfies ErrorReply);
    return;
  }
  const error = toAppError(err);
  const { logger } = ctx(res);
  if (error.kind === 'internal') logger.error({ err: error.cause ?? err }, 'request failed');
  if (error.kind === 'unavailable') {
    logger.warn({ cause: (error.cause as Error | undefined)?.message }, error.message);
    res.setHeader('Retry-After', '5');
  }
  res.status(httpStatusOf(error.kind)).json({
    status: false,
    message: error.kind === 'internal' ? GENERIC_ERROR_MESSAGE : error.message,
    ...(error.details.length ? { errors: error.details } : {}),
    ...(error instanceof FieldsError && Object.keys(error.fields).length
      ? { fields: error.fields }
      : {}),
  } satisfies ErrorReply);
};

export const notFound: RequestHandler = (_req, res) => {
  res.status(404).json({ status: false, message: 'Not found.' } satisfies ErrorReply);
};
