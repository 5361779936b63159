import { createLogger, type NatsConnection } from '@ratesmith/kit';
import { startTestServers, type TestServers } from '../src/testing';

/**
 * The integration tests' own servers run NATS locked down as production does, and
 * report what it refused, so a test that makes a service step outside its grant fails.
 */

const logger = createLogger('test', 'silent');
let servers: TestServers;
const open: NatsConnection[] = [];

beforeAll(async () => {
  servers = await startTestServers();
}, 60_000);

afterAll(async () => {
  await Promise.all(open.map((nc) => nc.close()));
  await servers?.stop();
});

async function as(who: Parameters<TestServers['connectAs']>[0]) {
  const nc = await servers.connectAs(who, logger);
  open.push(nc);
  return nc;
}

async function until(ok: () => boolean, ms = 5000) {
  const deadline = Date.now() + ms;
  while (!ok() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
}

it('gives each service its own user and reports what NATS refused it', async () => {
  expect(servers.lockedDown).toBe(true);
  expect(servers.nkeySeed('rules')).toMatch(/^SU/);
  expect(servers.nkeySeed('rules')).not.toBe(servers.nkeySeed('rate-engine'));

  const subject = `$KV.${servers.snapshotBucket}.some-shop_myshopify_com`;
  const engine = await as('rate-engine');
  engine.publish(subject, 'forged prices');
  await engine.flush();
  await until(() => servers.permissionViolations().length > 0);
  const violations = servers.permissionViolations();
  expect(violations).toHaveLength(1);
  expect(violations[0]).toMatch(/^rate-engine: Permissions Violation for Publish to/i);
  expect(violations[0]).toContain(subject);

  // The test's own connection has no limits, and what rules may do is not reported.
  const admin = await as('admin');
  const rules = await as('rules');
  admin.publish('anything.at.all', 'x');
  rules.publish(subject, 'a snapshot');
  await Promise.all([admin.flush(), rules.flush()]);
  await new Promise((r) => setTimeout(r, 200));
  expect(servers.permissionViolations()).toHaveLength(1);
});
