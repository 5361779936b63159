import {
  create,
  fromBinary,
  toBinary,
  type DescMethod,
  type MessageShape,
} from '@bufbuild/protobuf';
import type { GenService, GenServiceMethods } from '@bufbuild/protobuf/codegenv2';
import {
  headers as natsHeaders,
  RequestError,
  TimeoutError,
  type MsgHdrs,
} from '@nats-io/transport-node';
import { Svcm, type ServiceMsg } from '@nats-io/services';
import {
  context,
  metrics,
  propagation,
  SpanKind,
  SpanStatusCode,
  trace,
  type TextMapGetter,
  type TextMapSetter,
} from '@opentelemetry/api';
import { commonV1, rpcGroup, rpcSubject } from '@ratesmith/contracts';
import { countRefusedBody, ENCODING_HEADER, maxBody, packBody, unpackBody } from './bus-payload';
import { checkTimeLeft, deadlineFromHeader, remainingMs, withDeadline } from './deadline';
import { AppError, httpStatusOf, kindFromProto, kindToProto, toAppError } from './errors';
import type { Logger } from './logger';
import type { NatsConnection } from './nats';

/**
 * Request/reply over NATS, typed by the protobuf service descriptors in
 * @ratesmith/contracts. A service registers with the NATS services API
 * (name, version, discovery, a queue group across replicas); each method is an
 * endpoint on `<package>.<Method>`. Every request is awaited, decoded,
 * handled, encoded; failures are answered too, with the standard
 * Nats-Service-Error headers and a ratesmith.common.v1.Error body, so a caller
 * never waits out its timeout because a handler threw. Each request carries
 * its caller's deadline, in scope for the handler's work (./deadline.ts): one
 * whose caller stopped waiting before it was handled is answered
 * `unavailable` without being handled.
 */

type InputShape<T extends GenServiceMethods, K extends keyof T> = MessageShape<T[K]['input']>;
type OutputInit<T extends GenServiceMethods, K extends keyof T> = Parameters<
  typeof create<T[K]['output']>
>[1];
type OutputShape<T extends GenServiceMethods, K extends keyof T> = MessageShape<T[K]['output']>;
type InputInit<T extends GenServiceMethods, K extends keyof T> = Parameters<
  typeof create<T[K]['input']>
>[1];

export interface RpcContext {
  logger: Logger;
  requestId: string;
}

export type ServiceHandlers<T extends GenServiceMethods> = {
  [K in keyof T]: (request: InputShape<T, K>, ctx: RpcContext) => Promise<OutputInit<T, K>>;
};

/** The part of NATS headers trace propagation needs (the services package bundles its own nats-core types). */
type HeaderCarrier = { keys(): string[]; get(key: string): string } | undefined;

/** The client type of a service descriptor: `ClientOf<typeof rulesV1.RulesService>`. */
export type ClientOf<S> = S extends GenService<infer T> ? RpcClient<T> : never;

/** The handlers a service descriptor needs: `HandlersOf<typeof rulesV1.RulesService>`. */
export type HandlersOf<S> = S extends GenService<infer T> ? ServiceHandlers<T> : never;

const headerGetter: TextMapGetter<HeaderCarrier> = {
  keys: (carrier) => (carrier ? carrier.keys() : []),
  get: (carrier, key) => carrier?.get(key) || undefined,
};
const headerSetter: TextMapSetter<MsgHdrs> = {
  set: (carrier, key, value) => carrier.set(key, value),
};

const REQUEST_ID_HEADER = 'x-request-id';
/**
 * When the caller stops waiting, in epoch ms (./deadline.ts): an absolute
 * time, so it means the same on every machine of the cluster, whose clocks
 * NTP keeps within milliseconds. A server whose clock runs ahead by s ms
 * drops requests s ms early; one behind works on s ms after its caller left
 * (as every request did before deadlines travelled). Missing or malformed
 * (an older caller): no deadline.
 */
const DEADLINE_HEADER = 'ratesmith-deadline';

/** Served on /metrics as the histogram ratesmith_rpc_server_duration{method,outcome}, in ms. */
const serverDuration = metrics
  .getMeter('ratesmith-rpc')
  .createHistogram('ratesmith.rpc.server.duration', {
    description: 'Time to handle one NATS request, by method and outcome (ok or the error kind).',
    unit: 'ms',
    advice: { explicitBucketBoundaries: [1, 2, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000] },
  });

export async function serveRpc<T extends GenServiceMethods>(options: {
  nc: NatsConnection;
  service: GenService<T>;
  handlers: ServiceHandlers<T>;
  logger: Logger;
  name: string;
  version: string;
  subjectPrefix?: string;
  /**
   * The methods whose requests may arrive gzipped: those whose bodies can
   * pass COMPRESS_ABOVE (docs/architecture.md, "Message sizes"). Any other
   * method's gzipped request is refused unread, so a decompression bomb has
   * nowhere to go but the few methods that need compression (and those stop
   * at MAX_UNPACKED).
   */
  compressedRequests?: readonly (keyof T & string)[];
  /**
   * Answers a request somewhere else (a lane: a thread of lower priority,
   * ./lane.ts) from its bytes, with answerRequest there; undefined when it
   * cannot (then this event loop answers it with `handlers`).
   */
  offload?: RequestOffload;
}): Promise<{ stop(): Promise<void> }> {
  const { nc, service, handlers, logger, subjectPrefix = '' } = options;
  const compressible = new Set<string>(options.compressedRequests ?? []);
  const svc = await new Svcm(nc as never).add({
    name: options.name,
    version: options.version,
    description: service.typeName,
    queue: options.name,
  });
  const group = svc.addGroup(rpcGroup(service, subjectPrefix));
  // Handlers still running when the service stops: stop waits for them, so the
  // database they use is not closed under them (an answer, not an internal error).
  const inFlight = new Set<Promise<unknown>>();
  const tracer = trace.getTracer('ratesmith-rpc');
  for (const method of service.methods) {
    const handler = handlers[method.localName as keyof T];
    const subject = rpcSubject(method, subjectPrefix);
    group.addEndpoint(method.name, {
      metadata: { request: method.input.typeName, response: method.output.typeName },
      handler: (_err, msg) => {
        const parent = propagation.extract(context.active(), msg.headers, headerGetter);
        const requestId = msg.headers?.get(REQUEST_ID_HEADER) || crypto.randomUUID();
        tracer.startActiveSpan(
          `${subject} process`,
          {
            kind: SpanKind.SERVER,
            attributes: { 'messaging.system': 'nats', 'rpc.method': method.name },
          },
          parent,
          (span) => {
            const ctxLogger = logger.child({ request_id: requestId, rpc: method.name });
            const deadline = deadlineFromHeader(msg.headers?.get(DEADLINE_HEADER) || undefined);
            const handled = withDeadline(deadline, () =>
              handleOne(
                method,
                handler as never,
                msg,
                ctxLogger,
                requestId,
                nc,
                compressible.has(method.localName),
                options.offload,
                deadline,
              ),
            )
              .then((error) => {
                if (error) {
                  span.setStatus({ code: SpanStatusCode.ERROR, message: error.kind });
                }
              })
              .finally(() => {
                span.end();
                inFlight.delete(handled);
              });
            inFlight.add(handled);
          },
        );
      },
    });
  }
  logger.info(
    { nats_service: options.name, group: rpcGroup(service, subjectPrefix) },
    'NATS service started',
  );
  return {
    /** No new requests, then the ones being handled answered (the lifecycle bounds the wait). */
    stop: async () => {
      await svc.stop();
      await Promise.allSettled([...inFlight]);
    },
  };
}

/** A request's reply as it travels: its bytes, gzipped or not (bus-payload.ts). */
export interface PackedReply {
  data: Uint8Array;
  gzipped: boolean;
}

/**
 * serveRpc's `offload`: the reply to a request of `method` made elsewhere from
 * its bytes (`encoding`: the request's ENCODING_HEADER; `limit`: the largest
 * reply the bus takes). Rejects with the AppError the request is answered
 * with; resolves undefined when it cannot take the request.
 */
export type RequestOffload = (request: {
  method: DescMethod;
  data: Uint8Array;
  encoding: string | undefined;
  limit: number;
  requestId: string;
  /** The caller's deadline (epoch ms), for the work done elsewhere to honour. */
  deadline: number | undefined;
}) => Promise<PackedReply | undefined>;

/**
 * From a request's bytes to its reply's: unpack, decode, handle, encode, pack.
 * Throws AppError for what the caller is answered with. No NATS here, so it
 * runs wherever the bytes are (serveRpc's event loop, or an offload's thread).
 */
export async function answerRequest(
  method: DescMethod,
  handler: (request: unknown, ctx: RpcContext) => Promise<unknown>,
  data: Uint8Array,
  encoding: string | undefined,
  limit: number,
  ctx: RpcContext,
): Promise<PackedReply> {
  let request: unknown;
  try {
    request = fromBinary(method.input, await unpackBody(data, encoding));
  } catch (cause) {
    throw new AppError('invalid_data', 'The request could not be read.', [], { cause });
  }
  // The last moment before the handler's work: a request that waited (in the queue,
  // behind a busy event loop) until its caller gave up is not handled at all.
  checkTimeLeft();
  const result = await handler(request, ctx);
  return packBody(
    toBinary(method.output, create(method.output, result as never)),
    limit,
    'This answer',
  );
}

async function handleOne(
  method: DescMethod,
  handler: (request: unknown, ctx: RpcContext) => Promise<unknown>,
  msg: ServiceMsg,
  logger: Logger,
  requestId: string,
  nc: NatsConnection,
  compressible: boolean,
  offload: RequestOffload | undefined,
  deadline: number | undefined,
): Promise<AppError | undefined> {
  const started = performance.now();
  try {
    const encoding = msg.headers?.get(ENCODING_HEADER) || undefined;
    if (encoding && !compressible) {
      countRefusedBody('not_compressible');
      throw new AppError('invalid_data', 'The request could not be read.');
    }
    const limit = maxBody(nc);
    let reply: PackedReply | undefined;
    if (offload) {
      checkTimeLeft();
      reply = await offload({ method, data: msg.data, encoding, limit, requestId, deadline });
    }
    reply ??= await answerRequest(method, handler, msg.data, encoding, limit, {
      logger,
      requestId,
    });
    // The services package bundles its own nats-core types: same headers, another type.
    msg.respond(reply.data, reply.gzipped ? ({ headers: encodingHeaders() } as never) : undefined);
    const ms = performance.now() - started;
    serverDuration.record(ms, { method: method.name, outcome: 'ok' });
    logger.debug({ ms: Math.round(ms) }, 'handled');
    return undefined;
  } catch (err) {
    const error = toAppError(err);
    const ms = Math.round(performance.now() - started);
    // Unavailable past the deadline, no write sent (that lifts it): dropped because the
    // caller stopped waiting, before the handler or at one of its database calls.
    const expired = error.kind === 'unavailable' && remainingMs() <= 0;
    serverDuration.record(ms, { method: method.name, outcome: expired ? 'expired' : error.kind });
    if (expired)
      logger.info({ ms, late_ms: Math.round(-remainingMs()) }, 'caller stopped waiting: dropped');
    else if (error.kind === 'internal')
      logger.error({ err: error.cause ?? err, ms }, 'request failed');
    else logger.info({ kind: error.kind, ms, msg_text: error.message }, 'request refused');
    const body = toBinary(
      commonV1.ErrorSchema,
      create(commonV1.ErrorSchema, {
        kind: kindToProto(error.kind),
        message: error.message,
        details: error.details,
      }),
    );
    try {
      msg.respondError(httpStatusOf(error.kind), error.message, body);
    } catch (sendError) {
      // The connection went away mid-request; the caller sees a timeout.
      logger.warn({ err: (sendError as Error).message }, 'could not send the error reply');
    }
    return error;
  }
}

/** Calls the methods of one service with typed requests and replies. */
export class RpcClient<T extends GenServiceMethods> {
  private readonly tracer = trace.getTracer('ratesmith-rpc');

  constructor(
    private readonly nc: NatsConnection,
    private readonly service: GenService<T>,
    private readonly options: { timeoutMs: number; subjectPrefix?: string; displayName: string },
  ) {}

  async call<K extends keyof T & string>(
    methodName: K,
    request: InputInit<T, K>,
    opts: { timeoutMs?: number; requestId?: string } = {},
  ): Promise<OutputShape<T, K>> {
    const method = this.service.method[methodName] as unknown as DescMethod;
    const subject = rpcSubject(method, this.options.subjectPrefix);
    return this.tracer.startActiveSpan(
      `${subject} send`,
      {
        kind: SpanKind.CLIENT,
        attributes: { 'messaging.system': 'nats', 'rpc.method': method.name },
      },
      async (span) => {
        try {
          const hdrs = natsHeaders();
          propagation.inject(context.active(), hdrs, headerSetter);
          if (opts.requestId) hdrs.set(REQUEST_ID_HEADER, opts.requestId);
          const payload = await packBody(
            toBinary(method.input, create(method.input, request as never)),
            maxBody(this.nc),
            'This request',
          );
          if (payload.gzipped) hdrs.set(ENCODING_HEADER, 'gzip');
          const timeout = opts.timeoutMs ?? this.options.timeoutMs;
          // Made while handling a request: that caller's deadline, if sooner, passes on.
          const waitMs = Math.ceil(Math.min(timeout, remainingMs()));
          hdrs.set(DEADLINE_HEADER, String(Date.now() + waitMs));
          let reply;
          try {
            reply = await this.nc.request(subject, payload.data, { timeout, headers: hdrs });
          } catch (err) {
            throw this.transportError(err);
          }
          if (reply.headers?.get('Nats-Service-Error-Code')) {
            throw decodeErrorReply(reply.data, reply.headers.get('Nats-Service-Error'));
          }
          const body = await unpackBody(
            reply.data,
            reply.headers?.get(ENCODING_HEADER) || undefined,
          );
          return fromBinary(method.output, body) as OutputShape<T, K>;
        } catch (err) {
          const appError = toAppError(err);
          span.setStatus({ code: SpanStatusCode.ERROR, message: appError.kind });
          throw appError;
        } finally {
          span.end();
        }
      },
    );
  }

  private transportError(err: unknown): AppError {
    const name = this.options.displayName;
    if (err instanceof RequestError && err.isNoResponders()) {
      return new AppError(
        'unavailable',
        `The ${name} service is not available right now. Please try again shortly.`,
        [],
        {
          cause: err,
        },
      );
    }
    if (
      err instanceof TimeoutError ||
      (err instanceof RequestError && err.cause instanceof TimeoutError)
    ) {
      return new AppError(
        'unavailable',
        `The ${name} service did not answer in time. Please try again.`,
        [],
        {
          cause: err,
        },
      );
    }
    return new AppError(
      'unavailable',
      `The ${name} service cannot be reached right now. Please try again.`,
      [],
      {
        cause: err,
      },
    );
  }
}

function encodingHeaders(): MsgHdrs {
  const hdrs = natsHeaders();
  hdrs.set(ENCODING_HEADER, 'gzip');
  return hdrs;
}

function decodeErrorReply(data: Uint8Array, fallbackMessage: string): AppError {
  try {
    const body = fromBinary(commonV1.ErrorSchema, data);
    return new AppError(kindFromProto(body.kind), body.message || fallbackMessage, body.details);
  } catch {
    return new AppError('internal', fallbackMessage || 'The service failed.');
  }
}
