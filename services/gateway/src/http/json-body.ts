import express, { type RequestHandler } from 'express';
import { jsonNestingExceeds } from './validate';

/** Every /api body but a filter list's: settings, names, product ids (a picker's Add of 50 fits many times over). */
export const SMALL_BODY_LIMIT = '32kb';

/** The calls that carry a whole filter list (Save All, a preview of unsaved filters, an import). */
const FILTER_LIST_PATH =
  /^\/(global-rules\/update|product-rules\/update|rate-preview|config\/import)(\/|$)/;

/**
 * A JSON body parser whose bytes are scanned for nesting before JSON.parse
 * runs (strict: objects and arrays only). A body that nests too deeply
 * fails with the type the error handler answers as a 400.
 */
export function jsonParser(limit: string): RequestHandler {
  return express.json({
    limit,
    strict: true,
    verify: (_req, _res, bytes) => {
      if (jsonNestingExceeds(bytes))
        throw Object.assign(new Error('JSON nested too deeply'), { type: 'entity.too.deep' });
    },
  });
}

/**
 * /api bodies: a filter list may be as large as `filterListLimit` (100
 * filters of 50 conditions with long texts measure about 1.25 MB); every
 * other call gets SMALL_BODY_LIMIT, so a large body is read only where a
 * merchant could really send one.
 */
export function apiJsonBody(filterListLimit: string): RequestHandler {
  const large = jsonParser(filterListLimit);
  const small = jsonParser(SMALL_BODY_LIMIT);
  return (req, res, next) => (FILTER_LIST_PATH.test(req.path) ? large : small)(req, res, next);
}
