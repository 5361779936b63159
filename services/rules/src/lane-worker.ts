// The rules lane's thread (./lane.ts): its own MongoDB and NATS connections and the
// service's handlers on them (wireRules), answering the heavy calls the service's
// thread hands over. No subscription, no retry loop, no rebuild: those stay there.
import { rulesV1 } from '@ratesmith/contracts';
import {
  connectServiceMongo,
  connectServiceNats,
  createLogger,
  serveLaneThread,
} from '@ratesmith/kit';
import { loadConfig } from './config';
import type { Versions } from './domain/versions';
import { VERSIONS_WAIT_MS, type VersionsMessage } from './lane';
import { wireRules } from './service';

const config = loadConfig();
const logger = createLogger('rules', config.LOG_LEVEL).child({ component: 'rules-lane' });
let stop = async () => {};
/** This thread's versions, once open: the service's thread asks about their pending writes. */
let versions: Versions | undefined;

async function open() {
  const nc = await connectServiceNats(config, 'rules', logger);
  const conn = await connectServiceMongo(config, logger);
  const wired = await wireRules({ config, logger, nc, conn });
  versions = wired.app.versions;
  // The service's thread's pending version writes of the shop, waited for here too.
  versions.alsoAwait((shop) =>
    lane.ask({ type: 'versions-written?', shop } satisfies VersionsMessage, VERSIONS_WAIT_MS),
  );
  stop = async () => {
    await wired.drain();
    await nc.drain();
    await conn.close();
  };
  return wired.handlers;
}

const lane = serveLaneThread({
  service: rulesV1.RulesService,
  handlers: open(),
  logger,
  onMessage: (raw, reply) => {
    const message = raw as unknown as VersionsMessage;
    if (message.type === 'versions-written?') {
      const answer = () => reply({ type: 'versions-written', id: raw.id });
      void (versions ? versions.ownWritten(message.shop) : Promise.resolve()).finally(answer);
    }
  },
  onStop: () => stop(),
});
