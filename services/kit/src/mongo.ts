import mongoose, {
  type Connection,
  type Model,
  type MongooseDefaultQueryMiddleware,
  type QueryFilter,
  type Schema,
  type UpdateQuery,
} from 'mongoose';
import { checkTimeLeft, remainingMs, startWrite } from './deadline';
import type { Logger } from './logger';
import { guardClosedConnections } from './mongo-close-guard';

export type { Connection };

/**
 * Opens a dedicated mongoose connection (no global singleton) with bounded
 * waits: commands fail at once while disconnected instead of queueing for
 * mongoose's default 10 s, server selection gives up after ~2 s, queries carry
 * maxTimeMS and sockets time out, and a command never outlives its
 * connection (./mongo-close-guard.ts). mongoose does not retry a failed
 * first connect, so this does, until it succeeds or `signal` aborts.
 */
export async function connectMongo(options: {
  uri: string;
  dbName: string;
  logger: Logger;
  timeoutMs: number;
  signal?: AbortSignal;
}): Promise<Connection> {
  const { uri, dbName, logger, timeoutMs } = options;
  guardClosedConnections();
  for (let attempt = 1; ; attempt++) {
    const conn = mongoose.createConnection(uri, {
      dbName,
      bufferCommands: false,
      autoIndex: false,
      autoCreate: false,
      serverSelectionTimeoutMS: 2000,
      connectTimeoutMS: 2000,
      socketTimeoutMS: timeoutMs * 2,
      maxPoolSize: 20,
      // A query waiting for one of those connections waits no longer than one query may take
      // (the driver's default waits without end).
      waitQueueTimeoutMS: timeoutMs,
      // An acknowledged write is on a majority of the replica set (production runs one), so a
      // failover cannot take back a save the merchant was told about; the wait is bounded.
      writeConcern: { w: 'majority', wtimeoutMS: timeoutMs },
    });
    conn.plugin((schema) => honourTimeLimits(schema, timeoutMs));
    try {
      await conn.asPromise();
      logger.info({ db: dbName }, 'connected to MongoDB');
      conn.on('disconnected', () => logger.warn('MongoDB disconnected'));
      conn.on('reconnected', () => logger.info('MongoDB reconnected'));
      // Without a listener an 'error' event would throw and end the process.
      conn.on('error', (err: Error) =>
        logger.error({ err: err.message }, 'MongoDB connection error'),
      );
      return conn;
    } catch (err) {
      await conn.close().catch(() => undefined);
      if (options.signal?.aborted) throw err;
      const waitMs = Math.min(500 * attempt, 5000);
      logger.warn(
        { err: (err as Error).message, attempt, wait_ms: waitMs },
        'MongoDB not reachable yet',
      );
      await new Promise((r) => setTimeout(r, waitMs));
    }
  }
}

const READS: MongooseDefaultQueryMiddleware[] = ['find', 'findOne', 'countDocuments'];
const WRITES: MongooseDefaultQueryMiddleware[] = [
  'updateOne',
  'updateMany',
  'replaceOne',
  'deleteOne',
  'deleteMany',
  'findOneAndUpdate',
  'findOneAndReplace',
  'findOneAndDelete',
];

/**
 * Every query carries a server-side time limit, so a slow database fails a
 * call instead of hanging it; a read's is cut to what is left of the caller's
 * deadline (./deadline.ts), and none starts once it passed. No write starts
 * once it passed either (queries, document saves, insertMany, bulkWrite); one
 * sent lifts it for the rest of the request and keeps the full limit, so a
 * write the caller gave up on either completes or is never sent.
 */
function honourTimeLimits(schema: Schema, timeoutMs: number): void {
  schema.pre(READS, function () {
    checkTimeLeft();
    this.maxTimeMS(Math.min(timeoutMs, Math.ceil(remainingMs())));
  });
  schema.pre(WRITES, function () {
    startWrite();
    this.maxTimeMS(timeoutMs);
  });
  schema.pre('save', startWrite);
  schema.pre('insertMany', startWrite);
  schema.pre('bulkWrite', startWrite);
}

/** Whether the connection can serve queries now (readiness). */
export function mongoReady(conn: Connection): boolean {
  return conn.readyState === mongoose.ConnectionStates.connected;
}

export function isDuplicateKey(err: unknown): boolean {
  return (err as { code?: number })?.code === 11000;
}

/**
 * Takes the document `key` names until `ttlMs` from now when there is none or its
 * `field` (an expiry date) has passed: one upsert against a unique index on `key`'s
 * fields, so of callers at once exactly one gets it (true); for the others the
 * upsert would insert a second document, which the index refuses (false).
 */
export async function claimUnlessHeld<D>(
  model: Model<D>,
  key: Record<string, unknown>,
  field: string,
  ttlMs: number,
  set: Record<string, unknown> = {},
): Promise<boolean> {
  const now = new Date();
  try {
    await model.updateOne(
      { ...key, [field]: { $lte: now } } as QueryFilter<D>,
      { $set: { ...set, [field]: new Date(now.getTime() + ttlMs) } } as UpdateQuery<D>,
      { upsert: true },
    );
    return true;
  } catch (err) {
    if (isDuplicateKey(err)) return false;
    throw err;
  }
}

/**
 * Concurrent upserts of a document that does not exist yet can fail with a
 * duplicate-key error (MongoDB and FerretDB alike); trying again finds the
 * document the other writer created and updates it.
 */
export async function retryOnDuplicateKey<T>(
  operation: () => Promise<T>,
  attempts = 3,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await operation();
    } catch (err) {
      if (!isDuplicateKey(err) || attempt >= attempts) throw err;
    }
  }
}

/**
 * An index that lets MongoDB delete each document `seconds` after its
 * `field` date. FerretDB (local development and tests) has no TTL indexes
 * and refuses the option: there the index is built without it, and expired
 * documents stay until deleted otherwise (readers check the date anyway).
 */
export async function ensureTtlIndex(
  collection: Pick<mongoose.Collection, 'createIndex'>,
  field: string,
  seconds: number,
): Promise<void> {
  try {
    await collection.createIndex({ [field]: 1 }, { expireAfterSeconds: seconds });
  } catch (err) {
    if (!/expireAfterSeconds.*not implemented/i.test((err as Error).message)) throw err;
    await collection.createIndex({ [field]: 1 });
  }
}

/**
 * What every store of a service shares: its model stays inside it, and it builds
 * its indexes, with a TTL index (ensureTtlIndex) when its documents expire
 * (`expires`: the date field, and the seconds after it).
 */
export abstract class MongoStore<D> {
  protected constructor(
    protected readonly model: Model<D>,
    private readonly expires?: { field: keyof D & string; seconds: number },
  ) {}

  async buildIndexes(): Promise<void> {
    await this.model.createIndexes();
    if (this.expires)
      await ensureTtlIndex(this.model.collection, this.expires.field, this.expires.seconds);
  }
}
