import { createRequire } from 'node:module';
import { startTestServers, type TestServers } from '@ratesmith/devstack';
import { Schema, type Connection, type Model } from 'mongoose';
import { remainingMs, withDeadline } from '../src/deadline';
import { createLogger } from '../src/logger';
import { connectMongo } from '../src/mongo';

/** The one MongoDB connection every service opens (services/kit/src/mongo.ts). */
let servers: TestServers;

beforeAll(async () => {
  servers = await startTestServers();
}, 60_000);

afterAll(async () => {
  await servers?.stop();
});

it('writes with majority write concern and a bounded wait, so a failover keeps acknowledged saves', async () => {
  const conn = await connectMongo({
    uri: servers.mongoUri,
    dbName: servers.dbName,
    logger: createLogger('mongo-test', 'silent'),
    timeoutMs: 3000,
  });
  try {
    const client = conn.getClient();
    expect(client.writeConcern).toMatchObject({ w: 'majority', wtimeoutMS: 3000 });
    // Every wait is bounded: for a server, for a pooled connection, for an answer.
    expect(client.options).toMatchObject({
      serverSelectionTimeoutMS: 2000,
      waitQueueTimeoutMS: 3000,
      socketTimeoutMS: 6000,
    });
    const Note = conn.model('Note', new Schema({ text: String }));
    await Note.create({ text: 'kept' });
    expect(await Note.countDocuments({ text: 'kept' })).toBe(1);
  } finally {
    await conn.close();
  }
});

interface CounterDoc {
  name: string;
  n: number;
}

describe("the caller's deadline at the database (services/kit/src/deadline.ts)", () => {
  let conn: Connection;
  let Counter: Model<CounterDoc>;
  const gone = { kind: 'unavailable', message: expect.stringMatching(/stopped waiting/) };
  const past = () => Date.now() - 1;
  const stored = async () => (await Counter.findOne({ name: 'c' }).lean())?.n;

  beforeAll(async () => {
    conn = await connectMongo({
      uri: servers.mongoUri,
      dbName: `${servers.dbName}_deadline`,
      logger: createLogger('mongo-test', 'silent'),
      timeoutMs: 3000,
    });
    Counter = conn.model('Counter', new Schema<CounterDoc>({ name: String, n: Number }));
  });
  afterAll(() => conn?.close());
  beforeEach(async () => {
    await Counter.deleteMany({});
    await Counter.create({ name: 'c', n: 1 });
  });

  it('cuts a read time limit to what is left of the deadline', async () => {
    const capped = Counter.find({ name: 'c' });
    await withDeadline(Date.now() + 1500, () => capped.exec());
    expect(capped.getOptions().maxTimeMS).toBeGreaterThan(0);
    expect(capped.getOptions().maxTimeMS).toBeLessThanOrEqual(1500);
    const uncapped = Counter.find({ name: 'c' });
    await uncapped.exec();
    expect(uncapped.getOptions().maxTimeMS).toBe(3000);
  });

  it('sends no read once the caller stopped waiting', async () => {
    await expect(
      withDeadline(past(), async () => await Counter.findOne({ name: 'c' })),
    ).rejects.toMatchObject(gone);
    await expect(
      withDeadline(past(), async () => await Counter.countDocuments()),
    ).rejects.toMatchObject(gone);
  });

  it.each([
    ['updateOne', () => Counter.updateOne({ name: 'c' }, { $set: { n: 2 } })],
    ['updateMany', () => Counter.updateMany({}, { $set: { n: 2 } })],
    ['replaceOne', () => Counter.replaceOne({ name: 'c' }, { name: 'c', n: 2 })],
    ['findOneAndUpdate', () => Counter.findOneAndUpdate({ name: 'c' }, { $set: { n: 2 } })],
    ['findOneAndReplace', () => Counter.findOneAndReplace({ name: 'c' }, { name: 'c', n: 2 })],
    ['deleteOne', () => Counter.deleteOne({ name: 'c' })],
    ['deleteMany', () => Counter.deleteMany({})],
    ['findOneAndDelete', () => Counter.findOneAndDelete({ name: 'c' })],
    ['insertMany', () => Counter.insertMany([{ name: 'c', n: 2 }])],
    [
      'bulkWrite',
      () => Counter.bulkWrite([{ updateOne: { filter: { name: 'c' }, update: { n: 2 } } }]),
    ],
    ['create (document save)', () => Counter.create({ name: 'c', n: 2 })],
  ])('sends no %s once the caller stopped waiting: nothing changes', async (_, write) => {
    // Awaited inside the scope: a query runs when awaited, and takes the deadline then.
    await expect(withDeadline(past(), async () => await write())).rejects.toMatchObject(gone);
    expect(await Counter.find({}, { _id: 0, name: 1, n: 1 }).lean()).toEqual([{ name: 'c', n: 1 }]);
  });

  it('refuses a document save past the deadline', async () => {
    const doc = (await Counter.findOne({ name: 'c' }))!;
    doc.n = 2;
    await expect(withDeadline(past(), () => doc.save())).rejects.toMatchObject(gone);
    expect(await stored()).toBe(1);
  });

  it('once a write is sent, runs the rest of the request to its end past the deadline', async () => {
    const after = await withDeadline(Date.now() + 200, async () => {
      await Counter.updateOne({ name: 'c' }, { $set: { n: 2 } });
      await new Promise((resolve) => setTimeout(resolve, 300));
      // Past the caller's deadline: the second write and the read still go.
      await Counter.updateOne({ name: 'c' }, { $inc: { n: 1 } });
      return { n: await stored(), remaining: remainingMs() };
    });
    expect(after).toEqual({ n: 3, remaining: Infinity });
  });
});

describe('a pooled connection that closes under a command (services/kit/src/mongo-close-guard.ts)', () => {
  /** The driver's view of one pooled connection: what the test needs of it. */
  interface PooledConnection {
    socket: { destroy(): void };
    command(ns: unknown, command: object, options: object): Promise<unknown>;
  }
  // The driver's own helper, not part of its public API: the test drives one connection.
  const { ns } = createRequire(require.resolve('mongoose'))('mongodb/lib/utils') as {
    ns(name: string): unknown;
  };

  it('fails the command at once instead of waiting forever on a socket that is gone', async () => {
    const conn = await connectMongo({
      uri: servers.mongoUri,
      dbName: `${servers.dbName}_close`,
      logger: createLogger('mongo-test', 'silent'),
      timeoutMs: 3000,
    });
    try {
      await conn.db!.command({ ping: 1 });
      const server = (conn.getClient() as any).topology.s.servers.values().next().value;
      const pooled = server.pool.connections.first() as PooledConnection;
      // Closed, and the driver hears of it only a turn later: a command issued now is written
      // to a socket that can take nothing, and without the guard waits for it for ever.
      pooled.socket.destroy();
      const started = Date.now();
      const outcome = await Promise.race([
        pooled.command(ns('admin.$cmd'), { ping: 1 }, {}).then(
          () => 'answered',
          (err: Error) => err.name,
        ),
        new Promise((resolve) => setTimeout(resolve, 5000, 'still waiting after 5 s')),
      ]);
      expect(outcome).toBe('MongoNetworkError');
      expect(Date.now() - started).toBeLessThan(1000);
      // The pool goes on with a new connection.
      await expect(conn.db!.command({ ping: 1 })).resolves.toMatchObject({ ok: 1 });
    } finally {
      await conn.close();
    }
  });
});
