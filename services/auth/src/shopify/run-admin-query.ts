import type { authV1 } from '@ratesmith/contracts';
import { AppError, requireShopDomain, type Logger } from '@ratesmith/kit';
import { z } from 'zod';
import type { ShopsRepository } from '../data/shops.repository';
import type { TokenService } from '../tokens/token-service';
import type { ShopifyAdmin } from './admin-client';
import { ADMIN_QUERIES } from './admin-queries';

/** Largest variables document taken (the biggest real one, 8 product ids, is about 300 bytes). */
export const MAX_VARIABLES_BYTES = 4096;
/** Longest time a caller may ask for: the catalog's deadline is 10 s by default. */
export const MAX_TIME_LIMIT_MS = 60_000;

export const NOT_INSTALLED = 'This shop has not installed the app.';

const timeLimit = z.number().int().min(1).max(MAX_TIME_LIMIT_MS);

/**
 * RunAdminQuery: one allow-listed Admin GraphQL read for a shop, with the
 * shop's token, which stays in this service. The request is checked before
 * anything is read (the query is a known one, its variables are what that
 * query takes, the time limit is sane); a shop without a usable token is
 * `forbidden` with the reconnect message (a not_found would read as "no
 * products" on the picker); Shopify's failures are the texts of MESSAGES.
 */
export function adminQueryRunner(deps: {
  shops: Pick<ShopsRepository, 'isInstalled'>;
  tokens: Pick<TokenService, 'getAccessToken'>;
  admin: ShopifyAdmin;
  logger: Logger;
}) {
  return async (
    request: Pick<authV1.RunAdminQueryRequest, 'shop' | 'query' | 'variablesJson' | 'timeLimitMs'>,
  ): Promise<{ dataJson: string }> => {
    const startedAt = Date.now();
    const shop = requireShopDomain(request.shop);
    const definition = ADMIN_QUERIES.get(request.query);
    if (!definition) {
      throw new AppError('invalid_data', 'That is not a query Ratesmith runs on Shopify.');
    }
    const limit = timeLimit.safeParse(request.timeLimitMs);
    if (!limit.success) {
      throw new AppError(
        'invalid_data',
        `The time limit must be 1 to ${MAX_TIME_LIMIT_MS} milliseconds.`,
      );
    }
    const variables = parseVariables(request.variablesJson, definition.variables);
    const deadline = startedAt + limit.data;

    if (!(await deps.shops.isInstalled(shop))) throw new AppError('forbidden', NOT_INSTALLED);
    let accessToken: string;
    try {
      ({ accessToken } = await deps.tokens.getAccessToken(shop));
    } catch (err) {
      if (err instanceof AppError && err.kind === 'not_found') {
        throw new AppError('forbidden', err.message, [], { cause: err });
      }
      throw err;
    }
    deps.logger.debug({ shop, query: definition.name }, 'running an admin query');
    const data = await deps.admin.query<unknown>(
      shop,
      accessToken,
      definition.document,
      variables,
      deadline,
    );
    return { dataJson: JSON.stringify(data) };
  };
}

function parseVariables(
  json: string,
  schema: z.ZodType<Record<string, unknown>>,
): Record<string, unknown> {
  const invalid = (details: string[] = []) =>
    new AppError('invalid_data', 'The query variables are not valid.', details);
  if (Buffer.byteLength(json, 'utf8') > MAX_VARIABLES_BYTES) {
    throw invalid([`at most ${MAX_VARIABLES_BYTES} bytes`]);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(json || '{}');
  } catch {
    throw invalid(['not JSON']);
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    throw invalid(
      parsed.error.issues.map((i) => `${i.path.join('.') || '(variables)'}: ${i.message}`),
    );
  }
  return parsed.data;
}
