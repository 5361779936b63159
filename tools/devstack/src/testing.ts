import { randomBytes } from 'node:crypto';
import { startFerretDb, startNatsServer } from './servers';

/**
 * Servers for one integration test file. In order of preference: the ones
 * NATS_URL / MONGODB_URI name; containers through testcontainers when a
 * Docker engine answers; else local binaries (nats-server and FerretDB) on
 * free ports. With a shared server the file still gets its own database and
 * its own NATS subject prefix, so files and workers never see each other.
 */
export interface TestServers {
  natsUrl: string;
  mongoUri: string;
  /** Unique per call. */
  dbName: string;
  /** Unique per call when NATS is shared, else empty. */
  subjectPrefix: string;
  stop(): Promise<void>;
}

interface Started {
  url: string;
  stop(): Promise<void>;
}

/** Containers when a Docker engine is reachable (not on this project's machines), else undefined. */
async function containers(): Promise<{ nats: Started; mongo: Started } | undefined> {
  if (process.env.RATESMITH_TESTCONTAINERS === 'off') return undefined;
  const tc = await import('testcontainers');
  try {
    await tc.getContainerRuntimeClient();
  } catch {
    return undefined;
  }
  const [nats, mongo] = await Promise.all([
    new tc.GenericContainer('nats:2.10-alpine')
      .withCommand(['-js'])
      .withExposedPorts(4222)
      .withWaitStrategy(tc.Wait.forLogMessage('Server is ready'))
      .start(),
    new tc.GenericContainer('mongo:7')
      .withExposedPorts(27017)
      .withWaitStrategy(tc.Wait.forLogMessage(/Waiting for connections/))
      .start(),
  ]);
  const url = (c: typeof nats, scheme: string, port: number) =>
    `${scheme}://${c.getHost()}:${c.getMappedPort(port)}`;
  return {
    nats: { url: url(nats, 'nats', 4222), stop: async () => void (await nats.stop()) },
    mongo: { url: `${url(mongo, 'mongodb', 27017)}/`, stop: async () => void (await mongo.stop()) },
  };
}

export async function startTestServers(): Promise<TestServers> {
  const id = randomBytes(4).toString('hex');
  const external = { nats: process.env.NATS_URL, mongo: process.env.MONGODB_URI };
  const docker = external.nats && external.mongo ? undefined : await containers();
  const [nats, mongo]: (Started | undefined)[] = await Promise.all([
    external.nats ? undefined : (docker?.nats ?? startNatsServer()),
    external.mongo ? undefined : (docker?.mongo ?? startFerretDb()),
  ]);
  if (external.nats) await docker?.nats.stop();
  if (external.mongo) await docker?.mongo.stop();
  return {
    natsUrl: external.nats ?? nats!.url,
    mongoUri: external.mongo ?? mongo!.url,
    dbName: `test_${id}`,
    subjectPrefix: external.nats ? `t${id}.` : '',
    stop: async () => {
      await Promise.all([nats?.stop(), mongo?.stop()]);
    },
  };
}
