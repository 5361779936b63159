import { startTestServers, type TestServers } from '@ratesmith/devstack';
import { Schema } from 'mongoose';
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
    const Note = conn.model('Note', new Schema({ text: String }));
    await Note.create({ text: 'kept' });
    expect(await Note.countDocuments({ text: 'kept' })).toBe(1);
  } finally {
    await conn.close();
  }
});
