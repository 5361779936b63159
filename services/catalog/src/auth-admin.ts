import type { authV1 } from '@ratesmith/contracts';
import type { ClientOf } from '@ratesmith/kit';

/** The wait for auth beyond the time limit it was given: the NATS round trip and its own checks. */
export const AUTH_REPLY_SLACK_MS = 1000;

/** A catalogue query run by auth (the only holder of the shop's token). */
export interface AdminQueries {
  run<T>(
    shop: string,
    query: authV1.AdminQuery,
    variables: Record<string, unknown>,
    deadline: number,
    requestId: string,
  ): Promise<T>;
}

/**
 * Catalogue queries over NATS: auth runs the named query with the shop's
 * token and answers Shopify's data, bounded by what is left of the catalog's
 * deadline. Its failures arrive as the merchant's texts (busy, time-out,
 * reconnect) and pass through unchanged.
 */
export function authAdminQueries(auth: ClientOf<typeof authV1.AuthService>): AdminQueries {
  return {
    async run<T>(
      shop: string,
      query: authV1.AdminQuery,
      variables: Record<string, unknown>,
      deadline: number,
      requestId: string,
    ): Promise<T> {
      // At least 1 ms: a spent deadline is auth's to answer, with the merchant's time-out text.
      const timeLimitMs = Math.max(1, deadline - Date.now());
      const reply = await auth.call(
        'runAdminQuery',
        { shop, query, variablesJson: JSON.stringify(variables), timeLimitMs },
        { requestId, timeoutMs: timeLimitMs + AUTH_REPLY_SLACK_MS },
      );
      return JSON.parse(reply.dataJson) as T;
    },
  };
}
