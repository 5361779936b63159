import {
  GraphqlQueryError,
  HttpRequestError,
  HttpResponseError,
  HttpThrottlingError,
} from '@shopify/shopify-api';
import { AppError, type Logger } from '@ratesmith/kit';
import { type ShopifyLibrary } from '@ratesmith/kit/shopify';
import { adminGraphql } from './admin-graphql';
import { throttleWaitMs, type QueryCost } from './throttle';

/**
 * What the merchant reads when a catalogue query fails: the product picker
 * shows these texts as they travel over the bus (AppError messages).
 */
export const MESSAGES = {
  busy: 'Shopify is busy with this store right now. Please try again in a few seconds.',
  timeout: 'Shopify did not answer in time. Please try again.',
  unreachable: 'Shopify cannot be reached right now. Please try again shortly.',
  failed: 'Shopify could not load the products right now. Please try again in a moment.',
  denied:
    "Shopify refused Ratesmith access to this store's products. Please reinstall the app to grant access.",
  tooCostly: 'This product query is too large for Shopify. Please search for fewer products.',
} as const;

/** The texts of one kind of query; the catalogue's (MESSAGES) unless a caller gives its own. */
export type AdminMessages = { readonly [K in keyof typeof MESSAGES]: string };

export interface ShopifyAdminOptions {
  /** The service's library: its HTTP goes through the kit's transport (the double when set). */
  shopify: ShopifyLibrary;
  /** Limit of one HTTP request to Shopify. */
  requestTimeoutMs: number;
  /** Retries after throttled replies before giving up with a message. */
  throttleRetries: number;
  logger: Logger;
}

/**
 * Admin GraphQL queries through @shopify/shopify-api with the shop's offline
 * token (RunAdminQuery). Each request has a time limit; throttled replies are
 * retried after the wait the cost data gives, a bounded number of times and
 * never beyond the caller's deadline; every failure becomes an AppError with a
 * message the merchant can read. Tokens are never logged.
 */
export class ShopifyAdmin {
  constructor(private readonly options: ShopifyAdminOptions) {}

  /**
   * Runs one query (or mutation) for the shop; `deadline` (epoch ms) bounds
   * every attempt and wait; `messages` are what the merchant reads on failure.
   */
  async query<T>(
    shop: string,
    accessToken: string,
    document: string,
    variables: Record<string, unknown>,
    deadline: number,
    messages: AdminMessages = MESSAGES,
  ): Promise<T> {
    const client = adminGraphql(this.options.shopify, shop, accessToken);
    const log = this.options.logger.child({ shop });
    for (let attempt = 0; ; attempt++) {
      const remaining = deadline - Date.now();
      if (remaining <= 0) throw new AppError('unavailable', messages.timeout);
      const signal = AbortSignal.timeout(Math.min(this.options.requestTimeoutMs, remaining));
      let wait: number;
      try {
        const reply = await client.request<T>(document, { variables, retries: 0, signal });
        if (!reply.data) throw new AppError('unavailable', messages.failed);
        return reply.data;
      } catch (err) {
        if (signal.aborted && !(err instanceof AppError)) {
          log.warn({ attempt }, 'shopify query timed out');
          throw new AppError('unavailable', messages.timeout, [], { cause: err });
        }
        const throttled = throttledWait(err);
        if (throttled === undefined) throw toAppError(err, log, messages);
        wait = throttled;
      }
      if (wait === Infinity) throw new AppError('unavailable', messages.tooCostly);
      if (attempt >= this.options.throttleRetries || Date.now() + wait >= deadline) {
        log.warn({ attempt }, 'shopify kept throttling; giving up');
        throw new AppError('unavailable', messages.busy);
      }
      log.info({ attempt, wait_ms: wait }, 'shopify throttled the query; waiting');
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
}

interface GraphqlErrorBody {
  extensions?: { cost?: QueryCost };
  errors?: { graphQLErrors?: { message?: string; extensions?: { code?: string } }[] };
}

/** The wait a throttled reply asks for, or undefined when the error is not throttling. */
export function throttledWait(err: unknown): number | undefined {
  if (err instanceof GraphqlQueryError) {
    const body = err.body as GraphqlErrorBody | undefined;
    const throttled = body?.errors?.graphQLErrors?.some(
      (e) => e.extensions?.code === 'THROTTLED' || e.message === 'Throttled',
    );
    return throttled ? throttleWaitMs(body?.extensions?.cost) : undefined;
  }
  if (err instanceof HttpThrottlingError) {
    const after = err.response.retryAfter;
    return typeof after === 'number' && Number.isFinite(after) && after >= 0
      ? Math.ceil(after * 1000)
      : throttleWaitMs(undefined);
  }
  return undefined;
}

function toAppError(err: unknown, log: Logger, messages: AdminMessages): AppError {
  if (err instanceof AppError) return err;
  if (err instanceof GraphqlQueryError) {
    const errors = (err.body as GraphqlErrorBody | undefined)?.errors?.graphQLErrors ?? [];
    log.warn({ errors: errors.map((e) => e.message).slice(0, 3) }, 'shopify answered with errors');
    if (errors.some((e) => e.extensions?.code === 'ACCESS_DENIED')) {
      return new AppError('forbidden', messages.denied, [], { cause: err });
    }
    if (errors.some((e) => e.extensions?.code === 'MAX_COST_EXCEEDED')) {
      return new AppError('unavailable', messages.tooCostly, [], { cause: err });
    }
    return new AppError('unavailable', messages.failed, [], { cause: err });
  }
  if (err instanceof HttpResponseError) {
    const code = err.response.code;
    log.warn({ status: code }, 'shopify answered with an error status');
    if (code === 401 || code === 403) {
      return new AppError('forbidden', messages.denied, [], { cause: err });
    }
    return new AppError('unavailable', messages.failed, [], { cause: err });
  }
  if (err instanceof HttpRequestError) {
    log.warn({ err: err.message }, 'shopify could not be reached');
    // The transport's own time limit aborts the request too.
    const timedOut = /abort|timeout/i.test(err.message);
    return new AppError('unavailable', timedOut ? messages.timeout : messages.unreachable, [], {
      cause: err,
    });
  }
  return new AppError('internal', messages.failed, [], { cause: err });
}
