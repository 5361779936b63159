import { HttpResponseError, InvalidJwtError } from '@shopify/shopify-api';
import { AppError } from '@ratesmith/kit';

/**
 * Shopify's answers as AppErrors: a 4xx means Shopify refused the request
 * (`refusedMessage`, kind not_found: the shop has to connect again); anything
 * else (5xx, 429, timeouts, network) means Shopify cannot be reached now.
 */
export function shopifyFailure(err: unknown, refusedMessage: string): AppError {
  if (err instanceof AppError) return err;
  if (err instanceof InvalidJwtError)
    return new AppError('unauthorized', refusedMessage, [], { cause: err });
  if (err instanceof HttpResponseError) {
    const status = err.response.code;
    if (status >= 400 && status < 500 && status !== 429)
      return new AppError('not_found', refusedMessage, [], { cause: err });
  }
  return new AppError(
    'unavailable',
    'Shopify cannot be reached right now. Please try again shortly.',
    [],
    { cause: err },
  );
}
