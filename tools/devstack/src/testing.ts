import { randomBytes } from 'node:crypto';
import { SNAPSHOT_BUCKET } from '@ratesmith/contracts';
import { connectNats, type BusService, type Logger, type NatsConnection } from '@ratesmith/kit';
import { newBusUsers, type BusUsers } from './bus';
import { startFerretDb, startNatsServer } from './servers';
import { timed } from './stack-timings';

/**
 * Servers for one integration test file: the ones NATS_URL / MONGODB_URI name,
 * else local binaries (nats-server and FerretDB) on free ports. With a shared
 * server the file still gets its own database and its own NATS subject prefix,
 * so files and workers never see each other. (Containers are the images' own
 * suite's business, tools/devstack/test/images.int.spec.ts: local processes
 * start faster, and only they run NATS locked down.)
 *
 * A NATS server of the file's own runs locked down as production's does: one
 * user per service with the grants of services/kit/src/bus-access.ts, so
 * every integration test exercises the permission set. Each service connects
 * as itself (`connectAs`); the test's own connection is `admin` (no limits).
 */
export interface TestServers {
  natsUrl: string;
  mongoUri: string;
  /** Unique per call. */
  dbName: string;
  /** Unique per call when NATS is shared, else empty. */
  subjectPrefix: string;
  /** The snapshot bucket to use: the default on the file's own NATS, unique on a shared one. */
  snapshotBucket: string;
  /** Whether NATS refuses what a service has no grant for (false on a shared NATS). */
  lockedDown: boolean;
  /**
   * The FerretDB process this file started, e.g. to freeze (./faults/processes.ts)
   * as a stalled database; undefined when MONGODB_URI serves.
   */
  mongoPid: number | undefined;
  /** The NATS_NKEY_SEED of a service's process; undefined where NATS asks for no login. */
  nkeySeed(as: BusService | 'admin'): string | undefined;
  /** A connection as that service's user, named after it (its replies come to its own inbox). */
  connectAs(as: BusService | 'admin', logger: Logger): Promise<NatsConnection>;
  /**
   * What NATS refused the connections of `connectAs` so far ("rules: Permissions Violation
   * for Publish to ..."): a grant too narrow for what a test made a service do.
   */
  permissionViolations(): string[];
  stop(): Promise<void>;
}

interface Started {
  url: string;
  stop(): Promise<void>;
  /** The file's own server process. */
  process?: { pid?: number };
}

async function startTestServersUntimed(): Promise<TestServers> {
  const id = randomBytes(4).toString('hex');
  const external = { nats: process.env.NATS_URL, mongo: process.env.MONGODB_URI };
  // Only a NATS server this file starts itself gets the locked-down config.
  const users: BusUsers | undefined = external.nats ? undefined : newBusUsers();
  const [nats, mongo]: (Started | undefined)[] = await Promise.all([
    external.nats ? undefined : startNatsServer({ users }),
    external.mongo ? undefined : startFerretDb(),
  ]);
  const natsUrl = external.nats ?? nats!.url;
  const nkeySeed = (as: BusService | 'admin') => users?.[as].seed;
  const violations: string[] = [];
  const connectAs = async (as: BusService | 'admin', logger: Logger) => {
    const nc = await connectNats({ url: natsUrl, name: as, logger, nkeySeed: nkeySeed(as) });
    void (async () => {
      for await (const status of nc.status()) {
        if (status.type === 'error' && /permissions violation/i.test(status.error.message)) {
          violations.push(`${as}: ${status.error.message}`);
        }
      }
    })();
    return nc;
  };
  return {
    natsUrl,
    mongoUri: external.mongo ?? mongo!.url,
    dbName: `test_${id}`,
    subjectPrefix: external.nats ? `t${id}.` : '',
    snapshotBucket: external.nats ? `snapshots_${id}` : SNAPSHOT_BUCKET,
    lockedDown: users !== undefined,
    mongoPid: mongo?.process?.pid,
    nkeySeed,
    connectAs,
    permissionViolations: () => [...violations],
    stop: async () => {
      await Promise.all([nats?.stop(), mongo?.stop()]);
    },
  };
}

/** startTestServers, its duration recorded for the slowest-files table (stack-timings.ts). */
export const startTestServers = timed('test servers', startTestServersUntimed);
