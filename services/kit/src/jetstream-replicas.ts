import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { Kvm, type KV } from '@nats-io/kv';
import type { Logger } from './logger';
import type { NatsConnection } from './nats';

/**
 * The JetStream assets the services create (the snapshot bucket, the events
 * stream) get JETSTREAM_REPLICAS copies: 1 on one server, 3 on a 3-node
 * cluster, where each survives the loss of a node. A stream keeps the count
 * it was created with, so a deployment that moves from one server to a
 * cluster would keep single copies; a service allowed to update a stream
 * raises it (never lowers it) when it starts.
 */
export async function raiseStreamReplicas(
  nc: NatsConnection,
  stream: string,
  replicas: number,
  logger: Logger,
): Promise<number> {
  const jsm = await jetstreamManager(nc);
  const { config } = await jsm.streams.info(stream);
  const current = config.num_replicas || 1;
  if (current >= replicas) return current;
  await jsm.streams.update(stream, { num_replicas: replicas });
  logger.info({ stream, from: current, to: replicas }, 'stream replicas raised');
  return replicas;
}

/**
 * Opens the snapshot bucket, creating it if it is missing, with the same
 * options wherever it is opened, so whichever service starts first creates
 * it. `raise`: also raise an older bucket's replicas (the writer's grant).
 */
export async function openSnapshotBucket(
  nc: NatsConnection,
  options: {
    bucket: string;
    replicas: number;
    raise?: { logger: Logger };
    /** Bound on each JetStream call of the bucket (its watch's creation too); the client's 5 s unless given. */
    timeoutMs?: number;
  },
): Promise<KV> {
  const js = options.timeoutMs ? jetstream(nc, { timeout: options.timeoutMs }) : nc;
  const kv = await new Kvm(js).create(options.bucket, { history: 1, replicas: options.replicas });
  if (options.raise)
    await raiseStreamReplicas(nc, `KV_${options.bucket}`, options.replicas, options.raise.logger);
  return kv;
}
