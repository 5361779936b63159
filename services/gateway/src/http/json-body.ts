import { LIMITS } from '@ratesmith/contracts';
import { jsonHasNul, jsonNestingExceeds } from '@ratesmith/kit';
import express, { type RequestHandler } from 'express';

/** Every /api body but a filter list's: settings, names, product ids (a picker's Add of 50 fits many times over). */
export const SMALL_BODY_LIMIT = '32kb';

/** The calls that carry a whole filter list (Save All, a preview of unsaved filters). */
const FILTER_LIST_PATH = /^\/(global-rules\/update|product-rules\/update|rate-preview)(\/|$)/;

/** A page view's web vitals (POST /api/vitals): a few numbers, sent by every sampled page view. */
export const VITALS_BODY_LIMIT = '4kb';
const VITALS_PATH = /^\/vitals\/?$/;

/** A configuration file: up to LIMITS.configFileBytes, too large said in its own words. */
const CONFIG_IMPORT_PATH = /^\/config\/import\/?$/;

/**
 * A JSON body parser whose bytes are scanned for nesting and for the NUL
 * character before JSON.parse runs (strict: objects and arrays only). Either
 * fails with a type the error handler answers as a 400.
 */
export function jsonParser(limit: string): RequestHandler {
  return express.json({
    limit,
    strict: true,
    verify: (_req, _res, bytes) => {
      if (jsonNestingExceeds(bytes))
        throw Object.assign(new Error('JSON nested too deeply'), { type: 'entity.too.deep' });
      if (jsonHasNul(bytes))
        throw Object.assign(new Error('JSON text with NUL'), { type: 'entity.nul' });
    },
  });
}

/**
 * /api bodies: a filter list may be as large as `filterListLimit` (100
 * filters of 50 conditions with long texts measure about 1.25 MB); every
 * other call gets SMALL_BODY_LIMIT (web vitals VITALS_BODY_LIMIT), so a
 * large body is read only where a merchant could really send one.
 */
export function apiJsonBody(filterListLimit: string): RequestHandler {
  const large = jsonParser(filterListLimit);
  const small = jsonParser(SMALL_BODY_LIMIT);
  const config = jsonParser(`${LIMITS.configFileBytes}b`);
  const vitals = jsonParser(VITALS_BODY_LIMIT);
  return (req, res, next) => {
    if (VITALS_PATH.test(req.path)) return vitals(req, res, next);
    if (CONFIG_IMPORT_PATH.test(req.path))
      return config(req, res, (err?: unknown) =>
        next(
          (err as { type?: string } | undefined)?.type === 'entity.too.large'
            ? Object.assign(err as object, { type: 'config.too.large' })
            : err,
        ),
      );
    return (FILTER_LIST_PATH.test(req.path) ? large : small)(req, res, next);
  };
}
