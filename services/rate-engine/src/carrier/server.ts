import { createHmac, createSecretKey, type KeyObject, timingSafeEqual } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { carrierCallbackPath, RATE_KEY_CHARS } from '@ratesmith/contracts';
import {
  jsonNestingExceeds,
  KeyedRateLimiter,
  SHOP_BUCKETS_KEPT,
  type Logger,
} from '@ratesmith/kit';
import type { CarrierHmacMode } from '../config';
import {
  FilterHits,
  parseRateRequest,
  RateRequestError,
  type Quoter,
  type RateRequest,
} from '../engine';
import type { EngineMetrics, Outcome } from '../metrics';
import { traceRecent, type RecentSampler, type SampledCallback } from '../outcomes/recent';
import type { OutcomeRecorder } from '../outcomes/recorder';
import { compareShadow, SHADOW_LIMITS, type CompiledShadow } from '../outcomes/shadow';
import type { CachedSnapshot, SnapshotStore } from '../snapshots/store';

/**
 * Shopify's carrier-service callback: `POST /carrier/rates/<rate key>`.
 *
 * - The shop comes only from the unguessable rate key in the path (the auth
 *   service registers that URL per shop); an unknown key is a 404 with no
 *   body, answered before the body is read. Each key has a request budget a
 *   minute (429 beyond), so a leaked key cannot flood the engine.
 * - `X-Shopify-Hmac-Sha256` (base64 HMAC-SHA256 of the raw body with the app
 *   secret): Shopify does not document it on carrier callbacks, so by default
 *   (`verify-present`) a present one must verify (401 otherwise) and an
 *   unsigned callback is answered and counted; `enforce` refuses unsigned
 *   ones too; `monitor` refuses nothing (development only). A present
 *   `X-Shopify-Shop-Domain` must name the key's shop (401 otherwise).
 * - Once a valid signature has been seen for a rate key, Shopify signs that
 *   shop's callbacks, so an unsigned one is a stranger's: it has its own
 *   small budget (`unsignedRatePerKey`, never the shop's), and it is answered
 *   but left out of the shop's outcomes and Recent checkouts. Before any
 *   signed callback, unsigned ones are treated as Shopify's (it may not sign).
 * - The body is capped in bytes and items; an unsigned body, or a signed one
 *   larger than a cart usually is, is scanned for nesting before it is parsed
 *   (Shopify's nests 5 deep); only the fields the engine reads are looked at.
 *   Malformed bodies get a 400 with a one-line message.
 * - Answers come from the in-memory snapshots: NATS, MongoDB and the rules
 *   service being down does not matter to a shop already in the cache.
 *
 * Plain node:http rather than Express: this is the checkout path, and the
 * router is one regular expression.
 */

export interface CarrierOptions {
  store: SnapshotStore;
  secret: string;
  /** During a secret rotation, the old secret: a signature made with it still verifies. */
  previousSecret?: string | undefined;
  hmacMode: CarrierHmacMode;
  /** Callbacks a minute one rate key may make; 0: no limit. */
  ratePerKey: number;
  /**
   * Unsigned callbacks a minute for a rate key whose callbacks Shopify has
   * been seen signing (those are not Shopify's); 0: no limit.
   */
  unsignedRatePerKey: number;
  bodyLimit: number;
  maxItems: number;
  /** Quotes the cached snapshots (with the service's hot tier). */
  quoter: Quoter;
  /** Counts what callbacks answered and the filters their quotes matched (never waited for). */
  outcomes: OutcomeRecorder;
  /** Whether the filters each quote matched are counted too (FILTER_ANALYTICS). */
  filterAnalytics: boolean;
  /** Picks the callbacks traced for Recent checkouts, after their answer (outcomes/recent.ts). */
  recent: RecentSampler;
  /** Picks the signed callbacks of shops in shadow that are compared, after their answer (outcomes/shadow.ts). */
  shadow: RecentSampler;
  metrics: EngineMetrics;
  logger: Logger;
  /** False while the answers come from memory only (NATS down): counted as stale. */
  live: () => boolean;
  /**
   * The wall clock (ms since the epoch), read once as a callback arrives: the
   * request time of its delivery dates. Date.now unless a test sets the time.
   */
  clock?: () => number;
}

const PATH = new RegExp(`^${carrierCallbackPath(`(${RATE_KEY_CHARS})`)}$`);

/**
 * Deepest nesting of an unsigned body: Shopify's nests 5 deep (the body,
 * `rate`, `items`, an item, its `properties`), with room to spare.
 */
const CALLBACK_MAX_DEPTH = 8;

/**
 * Signed bodies up to this size (a cart of a few dozen lines) are parsed
 * unscanned: the scan would add about 40 % to a usual cart's parse, and 8 KB
 * of nested brackets parses in under a millisecond. Larger signed bodies are
 * scanned: 200 KB of them took 40 to 60 ms to parse on the checkout's event
 * loop (docs/security.md, S14).
 */
const SIGNED_UNSCANNED_BYTES = 8 * 1024;

/** Rate keys remembered as signed, at most (then the memory starts again). */
const SIGNED_KEYS_KEPT = 100_000;

class HttpFailure extends Error {
  constructor(
    readonly status: number,
    readonly outcome: Outcome,
    message: string,
    /** Seconds, for a 429's Retry-After. */
    readonly retryAfter?: number,
  ) {
    super(message);
  }
}

/**
 * Constant-time check of Shopify's signature over the exact bytes received.
 * The header is compared as the exact base64 text: decoding it first would
 * let trailing junk ("<sig>, <sig>", a repeated header) pass.
 */
export function signatureValid(body: Buffer, header: string, secret: string | KeyObject): boolean {
  const expected = Buffer.from(createHmac('sha256', secret).update(body).digest('base64'));
  const given = Buffer.from(header);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** A callback's shop and the rate key it came on. */
interface Caller {
  shop: string;
  key: string;
}

export function carrierHandler(options: CarrierOptions) {
  const { store, quoter, metrics, logger, outcomes, recent } = options;
  const clock = options.clock ?? Date.now;
  // The key is imported once, not on every request.
  const secrets = [options.secret, options.previousSecret]
    .filter((s): s is string => !!s)
    .map((s) => createSecretKey(Buffer.from(s, 'utf8')));
  // Keyed by known rate keys only (an unknown one is answered 404 before): one bucket a shop.
  const limiter =
    options.ratePerKey > 0
      ? new KeyedRateLimiter(options.ratePerKey, Date.now, SHOP_BUCKETS_KEPT)
      : undefined;
  const unsignedLimiter =
    options.unsignedRatePerKey > 0
      ? new KeyedRateLimiter(options.unsignedRatePerKey, Date.now, SHOP_BUCKETS_KEPT)
      : undefined;
  /** Rate keys a valid signature was seen for: Shopify signs their callbacks. */
  const signedKeys = new Set<string>();
  const tooLarge = () => new HttpFailure(413, 'too_large', 'The request body is too large.');
  // The filters each quote matched; one for every callback (quotes are synchronous).
  const hits = options.filterAnalytics ? new FilterHits() : null;

  function send(res: ServerResponse, status: number, body?: string): void {
    if (body === undefined) {
      res.writeHead(status, ['content-length', '0']);
      res.end();
      return;
    }
    res.writeHead(status, [
      'content-type',
      'application/json',
      'cache-control',
      'no-store',
      'content-length',
      String(Buffer.byteLength(body)),
    ]);
    res.end(body);
  }

  /** The callback's signature check: whether it was signed (and valid); throws when refused. */
  function checkSignature(req: IncomingMessage, body: Buffer): boolean {
    const header = req.headers['x-shopify-hmac-sha256'];
    const result =
      typeof header !== 'string' || header === ''
        ? 'missing'
        : secrets.some((secret) => signatureValid(body, header, secret))
          ? 'valid'
          : 'invalid';
    metrics.signature(result);
    const refused =
      options.hmacMode === 'enforce'
        ? result !== 'valid'
        : options.hmacMode === 'verify-present' && result === 'invalid';
    if (refused) throw new HttpFailure(401, 'unauthorized', '');
    return result === 'valid';
  }

  /** A shadow callback to compare once answered. */
  interface ShadowSampled {
    shop: string;
    shadow: CompiledShadow;
    request: RateRequest;
    at: number;
  }
  /** The outcome, the body, and what to trace or compare once answered when it was sampled. */
  type Answer = [Outcome, string, SampledCallback?, ShadowSampled?];

  /**
   * `counted`: the callback is (or may be) Shopify's, so its outcome is the
   * shop's. `signed`: it verified, so a shadow may compare it.
   */
  function respond(
    shop: string,
    entry: CachedSnapshot | undefined,
    request: RateRequest,
    counted: boolean,
    signed: boolean,
  ): Answer {
    if (entry?.shadow) {
      // In shadow checkout shows only the native rates: no rate, and no outcome
      // counted (the Dashboard would read every cart as one left without a rate).
      const now = Date.now();
      const compared =
        signed && options.shadow.take(shop, now, SHADOW_LIMITS.perShopMinute)
          ? { shop, shadow: entry.shadow, request, at: now }
          : undefined;
      return ['no_rates', '{"rates":[]}', undefined, compared];
    }
    if (!entry) {
      if (counted) outcomes.record(shop, [], request);
      return ['no_rates', '{"rates":[]}'];
    }
    const { rates, blocked } = quoter.quote(entry.compiled, request, false, counted ? hits : null);
    if (!counted) return [rates.length ? 'ok' : 'no_rates', JSON.stringify({ rates })];
    outcomes.record(shop, rates, request, entry.compiled, hits, blocked === true);
    const now = Date.now();
    const sampled = recent.take(shop, now, entry.compiled.recentPerMinute)
      ? { shop, compiled: entry.compiled, request, rates, at: now }
      : undefined;
    return [rates.length ? 'ok' : 'no_rates', JSON.stringify({ rates }), sampled];
  }

  /** The answer to a whole body: synchronous when the shop is cached (the checkout path). */
  function answer(
    req: IncomingMessage,
    { shop, key }: Caller,
    body: Buffer,
    arrived: number,
  ): Answer | Promise<Answer> {
    const signed = checkSignature(req, body);
    if (signed && !signedKeys.has(key)) {
      if (signedKeys.size >= SIGNED_KEYS_KEPT) signedKeys.clear();
      signedKeys.add(key);
    }
    if (
      (!signed || body.length > SIGNED_UNSCANNED_BYTES) &&
      jsonNestingExceeds(body, CALLBACK_MAX_DEPTH)
    )
      throw new HttpFailure(400, 'bad_request', 'The request body nests too deeply.');
    const counted = signed || !signedKeys.has(key);
    let json: unknown;
    try {
      json = JSON.parse(body.toString('utf8'));
    } catch {
      throw new HttpFailure(400, 'bad_request', 'The request body is not valid JSON.');
    }
    const request = parseRateRequest(json, options.maxItems, arrived);
    const entry = store.cached(shop);
    if (entry) return respond(shop, entry, request, counted, signed);
    return store.get(shop).then(
      (found) => respond(shop, found, request, counted, signed),
      (err: unknown) => {
        logger.warn({ shop, err: (err as Error).message }, 'snapshot not available');
        throw new HttpFailure(503, 'unavailable', '');
      },
    );
  }

  function succeed(
    res: ServerResponse,
    [outcome, body, sampled, compared]: Answer,
    started: number,
  ): void {
    send(res, 200, body);
    const took = performance.now() - started;
    metrics.request(outcome, !options.live(), took);
    // The trace is a second quote: it runs after this callback, never on its time.
    if (sampled)
      setImmediate(() => {
        try {
          const checkout = traceRecent(sampled, took);
          if (checkout) outcomes.addRecent(checkout);
        } catch (err) {
          // Outside any request: an exception here would end the process.
          logger.warn(
            { shop: sampled.shop, err: (err as Error).message },
            'recent checkout not traced',
          );
        }
      });
    // The shadow's quote and the native rates: after this callback too.
    if (compared)
      setImmediate(() => {
        try {
          outcomes.addShadow(
            compareShadow(compared.shop, compared.shadow, compared.request, compared.at),
          );
        } catch (err) {
          logger.warn(
            { shop: compared.shop, err: (err as Error).message },
            'shadow cart not compared',
          );
        }
      });
  }

  function fail(res: ServerResponse, err: unknown, started: number): void {
    let failure: HttpFailure;
    if (err instanceof HttpFailure) failure = err;
    else if (err instanceof RateRequestError)
      failure = new HttpFailure(400, 'bad_request', err.message);
    else {
      logger.error({ err }, 'carrier callback failed');
      failure = new HttpFailure(500, 'error', 'Something went wrong.');
    }
    if (failure.status === 413) res.setHeader('connection', 'close');
    if (failure.retryAfter) res.setHeader('retry-after', String(failure.retryAfter));
    send(
      res,
      failure.status,
      failure.message ? JSON.stringify({ error: failure.message }) : undefined,
    );
    metrics.request(failure.outcome, !options.live(), performance.now() - started);
  }

  function finish(
    req: IncomingMessage,
    res: ServerResponse,
    caller: Caller,
    body: Buffer,
    started: number,
    arrived: number,
  ) {
    let result: Answer | Promise<Answer>;
    try {
      result = answer(req, caller, body, arrived);
    } catch (err) {
      fail(res, err, started);
      return;
    }
    if (Array.isArray(result)) succeed(res, result, started);
    else
      result.then(
        (done) => succeed(res, done, started),
        (err: unknown) => fail(res, err, started),
      );
  }

  /** Who calls: the key's shop, or the failure to answer before reading the body. */
  function callerOrFailure(req: IncomingMessage, key: string): Caller | HttpFailure {
    const shop = store.shopForKey(key);
    if (!shop)
      // Before the bucket was read in full an unknown key may just not be loaded yet.
      return store.synced
        ? new HttpFailure(404, 'unknown_key', '')
        : new HttpFailure(503, 'unavailable', '');
    const named = req.headers['x-shopify-shop-domain'];
    if (typeof named === 'string' && named.toLowerCase() !== shop)
      return new HttpFailure(401, 'unauthorized', '');
    // An unsigned callback for a key Shopify signs for spends its own budget, never the shop's.
    const header = req.headers['x-shopify-hmac-sha256'];
    const stranger = (typeof header !== 'string' || header === '') && signedKeys.has(key);
    const wait = (stranger ? unsignedLimiter : limiter)?.take(key) ?? 0;
    if (wait > 0) return new HttpFailure(429, 'rate_limited', '', wait);
    return { shop, key };
  }

  return (req: IncomingMessage, res: ServerResponse): void => {
    const started = performance.now();
    const arrived = clock();
    const key = req.method === 'POST' ? PATH.exec(req.url ?? '')?.[1] : undefined;
    if (!key) {
      req.resume();
      send(res, 404);
      return;
    }
    const caller = callerOrFailure(req, key);
    if (caller instanceof HttpFailure) {
      req.resume();
      fail(res, caller, started);
      return;
    }
    const limit = options.bodyLimit;
    if (Number(req.headers['content-length'] ?? 0) > limit) {
      fail(res, tooLarge(), started);
      return;
    }
    // The body is read with plain listeners (no promise a request): one chunk,
    // as a Shopify callback usually is, is used as it is.
    let first: Buffer | undefined;
    let chunks: Buffer[] | undefined;
    let size = 0;
    let done = false;
    req.on('data', (chunk: Buffer) => {
      if (done) return;
      size += chunk.length;
      if (size > limit) {
        done = true;
        fail(res, tooLarge(), started);
        req.destroy();
        return;
      }
      if (first === undefined) first = chunk;
      else (chunks ??= [first]).push(chunk);
    });
    req.on('end', () => {
      if (done) return;
      done = true;
      const body = chunks ? Buffer.concat(chunks, size) : (first ?? Buffer.alloc(0));
      finish(req, res, caller, body, started, arrived);
    });
    req.on('error', (err) => {
      if (done) return;
      done = true;
      fail(res, err, started);
    });
  };
}

/** Starts the callback server; the returned server is closed by the service's stop. */
export async function startCarrierServer(
  options: CarrierOptions & { port: number; host?: string },
): Promise<Server> {
  const server = createServer(carrierHandler(options));
  // OpenTelemetry's HTTP instrumentation wraps http.Server.prototype.emit to make a
  // span and record its own duration histogram for every request. On this path that
  // cost about a third of the throughput (docs/performance.md), and a callback makes
  // no outbound call a trace could follow; the engine's own histogram and counters
  // (metrics.ts) cover it. So this server, and only this one, emits unwrapped.
  server.emit = EventEmitter.prototype.emit;
  // Bounded waits: a slow or stuck client cannot hold a socket for long.
  server.headersTimeout = 5000;
  server.requestTimeout = 5000;
  server.keepAliveTimeout = 5000;
  server.maxHeadersCount = 100;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  return server;
}
