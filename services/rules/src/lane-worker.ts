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
import { wireRules } from './service';

const config = loadConfig();
const logger = createLogger('rules', config.LOG_LEVEL).child({ component: 'rules-lane' });
let stop = async () => {};

async function open() {
  const nc = await connectServiceNats(config, 'rules', logger);
  const conn = await connectServiceMongo(config, logger);
  const wired = await wireRules({ config, logger, nc, conn });
  stop = async () => {
    await wired.drain();
    await nc.drain();
    await conn.close();
  };
  return wired.handlers;
}

serveLaneThread({
  service: rulesV1.RulesService,
  handlers: open(),
  logger,
  onStop: () => stop(),
});
