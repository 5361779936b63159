import { randomBytes } from 'node:crypto';
import { startFerretDb, startNatsServer, type RunningServer } from './servers';

/**
 * Servers for one integration test file: its own NATS and FerretDB, unless
 * NATS_URL / MONGODB_URI name servers to use. With a shared server the file
 * still gets its own database and its own NATS subject prefix, so files and
 * workers never see each other's data or requests.
 */
export interface TestServers {
  natsUrl: string;
  mongoUri: string;
  /** Unique per call. */
  dbName: string;
  /** Unique per call when NATS is shared, else empty. */
  subjectPrefix: string;
  nats?: RunningServer;
  mongo?: RunningServer;
  stop(): Promise<void>;
}

export async function startTestServers(): Promise<TestServers> {
  const id = randomBytes(4).toString('hex');
  const [nats, mongo] = await Promise.all([
    process.env.NATS_URL ? undefined : startNatsServer(),
    process.env.MONGODB_URI ? undefined : startFerretDb(),
  ]);
  return {
    natsUrl: process.env.NATS_URL ?? nats!.url,
    mongoUri: process.env.MONGODB_URI ?? mongo!.url,
    dbName: `test_${id}`,
    subjectPrefix: process.env.NATS_URL ? `t${id}.` : '',
    nats,
    mongo,
    stop: async () => {
      await Promise.all([nats?.stop(), mongo?.stop()]);
    },
  };
}
