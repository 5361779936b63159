import {
  fromBinary,
  toBinary,
  create,
  type DescMessage,
  type MessageShape,
} from '@bufbuild/protobuf';
import {
  AckPolicy,
  DeliverPolicy,
  jetstream,
  jetstreamManager,
  JetStreamApiError,
  RetentionPolicy,
  StorageType,
  type ConsumerMessages,
} from '@nats-io/jetstream';
import { eventSubject } from '@ratesmith/contracts';
import type { Logger } from './logger';
import type { NatsConnection } from './nats';

/**
 * Events that must not be lost while a consumer is down (shop redaction)
 * travel through one JetStream stream; each consuming service has a durable
 * consumer and acknowledges only after acting, so redelivery is the failure
 * mode and handlers are idempotent. Subjects come from `eventSubject`.
 */
export const EVENTS_STREAM = 'RATESMITH_EVENTS';
const MAX_AGE_NS = 14 * 24 * 3600 * 1e9;

/** Environments sharing a NATS server (a subject prefix) get their own stream. */
export function eventsStreamName(prefix = ''): string {
  return prefix ? `${EVENTS_STREAM}_${prefix.replace(/[^A-Za-z0-9_-]/g, '_')}` : EVENTS_STREAM;
}

/**
 * Creates the stream for the given event subjects with `replicas` copies
 * (JETSTREAM_REPLICAS), or adds missing subjects and missing copies to it
 * (a stream created on one server keeps one copy otherwise).
 */
export async function ensureEventsStream(
  nc: NatsConnection,
  events: DescMessage[],
  prefix = '',
  replicas = 1,
): Promise<string> {
  const jsm = await jetstreamManager(nc);
  const name = eventsStreamName(prefix);
  const subjects = events.map((e) => eventSubject(e, prefix));
  try {
    const info = await jsm.streams.info(name);
    const missing = subjects.filter((s) => !info.config.subjects?.includes(s));
    const fewer = (info.config.num_replicas || 1) < replicas;
    if (missing.length || fewer)
      await jsm.streams.update(name, {
        subjects: [...(info.config.subjects ?? []), ...missing],
        num_replicas: Math.max(info.config.num_replicas || 1, replicas),
      });
  } catch (err) {
    if (!(err instanceof JetStreamApiError) || err.status !== 404) throw err;
    try {
      await jsm.streams.add({
        name,
        subjects,
        retention: RetentionPolicy.Limits,
        storage: StorageType.File,
        max_age: MAX_AGE_NS,
        duplicate_window: 2 * 60 * 1e9,
        num_replicas: replicas,
      });
    } catch (addErr) {
      // Another service created it at the same moment.
      if (!(addErr instanceof JetStreamApiError)) throw addErr;
      await ensureEventsStream(nc, events, prefix, replicas);
    }
  }
  return name;
}

/** Publishes an event and waits for the stream to store it; `id` deduplicates retries. */
export async function publishEvent<D extends DescMessage>(
  nc: NatsConnection,
  schema: D,
  message: Parameters<typeof create<D>>[1],
  options: { prefix?: string; id?: string; timeoutMs?: number } = {},
): Promise<void> {
  const js = jetstream(nc, { timeout: options.timeoutMs ?? 5000 });
  await js.publish(
    eventSubject(schema, options.prefix),
    toBinary(schema, create(schema, message)),
    options.id ? { msgID: options.id } : undefined,
  );
}

/** The durable consumer of one service for one event type: what its bus grant names. */
export function eventConsumerName(service: string, schema: DescMessage): string {
  return `${service}_${schema.name}`;
}

/**
 * Runs `handler` for every event of one type with a durable consumer named
 * `durable`. A handler that throws gets the event again after a pause.
 */
export async function consumeEvents<D extends DescMessage>(options: {
  nc: NatsConnection;
  schema: D;
  durable: string;
  prefix?: string;
  /** JETSTREAM_REPLICAS: copies of the stream if this creates it (the consumer has as many). */
  replicas?: number;
  logger: Logger;
  handler: (event: MessageShape<D>) => Promise<void>;
}): Promise<{ stop(): Promise<void> }> {
  const { nc, schema, logger } = options;
  const stream = await ensureEventsStream(nc, [schema], options.prefix, options.replicas);
  const jsm = await jetstreamManager(nc);
  const durable = eventConsumerName(options.durable, schema);
  await jsm.consumers.add(stream, {
    durable_name: durable,
    ack_policy: AckPolicy.Explicit,
    deliver_policy: DeliverPolicy.All,
    filter_subject: eventSubject(schema, options.prefix),
    ack_wait: 30 * 1e9,
    max_deliver: -1,
  });
  const consumer = await jetstream(nc).consumers.get(stream, durable);
  const messages: ConsumerMessages = await consumer.consume({ max_messages: 10 });
  const done = (async () => {
    for await (const msg of messages) {
      try {
        await options.handler(fromBinary(schema, msg.data));
        msg.ack();
      } catch (err) {
        logger.warn(
          { err: (err as Error).message, event: schema.name },
          'event not handled; will retry',
        );
        msg.nak(5000);
      }
    }
  })();
  return {
    stop: async () => {
      await messages.close();
      await done;
    },
  };
}
