import { catalogV1 } from '@ratesmith/contracts';
import { createLogger, RpcClient, type NatsConnection } from '@ratesmith/kit';
import { DEMO_CATALOG } from '@ratesmith/shopify-double';
import { startAuthStack, type AuthStack } from '../../auth/test/harness';
import { loadConfig } from '../src/config';
import { startCatalogService } from '../src/service';

/**
 * The shop's access token never travels on the bus: while the catalog lists
 * products (auth running its Shopify queries), a connection that hears every
 * subject (`>`) sees the queries and Shopify's data go by, and no token.
 */

const SHOP = 'sniffed-shop.myshopify.com';
const logger = createLogger('test', process.env.TEST_LOG_LEVEL ?? 'silent');

let stack: AuthStack;
let catalogBus: NatsConnection;
let catalog: Awaited<ReturnType<typeof startCatalogService>>;
beforeAll(async () => {
  stack = await startAuthStack();
  catalogBus = await stack.servers.connectAs('catalog', logger);
  catalog = await startCatalogService({
    config: loadConfig({
      NATS_URL: stack.servers.natsUrl,
      NATS_SUBJECT_PREFIX: stack.servers.subjectPrefix,
    }),
    logger,
    nc: catalogBus,
  });
  await stack.service.tokens.exchangeSessionToken(SHOP, stack.sessionToken(SHOP));
  await stack.service.shops.markInstalled(SHOP);
});
afterAll(async () => {
  await catalog?.stop();
  await catalogBus?.close();
  await stack?.stop();
});

interface Heard {
  subject: string;
  text: string;
}

it('carries queries and store data between catalog and auth, never a token', async () => {
  const heard: Heard[] = [];
  const decoder = new TextDecoder();
  const sniffer = stack.nc.subscribe('>', {
    callback: (_err, msg) => {
      const headers = msg.headers
        ? msg.headers
            .keys()
            .map((k) => `${k}: ${msg.headers!.get(k)}`)
            .join('\n')
        : '';
      heard.push({ subject: msg.subject, text: `${headers}\n${decoder.decode(msg.data)}` });
    },
  });
  await stack.nc.flush();

  const client = new RpcClient(stack.nc, catalogV1.CatalogService, {
    timeoutMs: 15_000,
    subjectPrefix: stack.servers.subjectPrefix,
    displayName: 'catalog',
  });
  const page1 = await client.call('listProducts', { shop: SHOP });
  const page2 = await client.call('listProducts', { shop: SHOP, after: page1.pageInfo!.endCursor });
  const mugs = await client.call('listProducts', { shop: SHOP, search: 'mug' });
  expect(page1.products.map((p) => p.title)).toEqual(DEMO_CATALOG.slice(0, 15).map((p) => p.title));
  expect(page2.products).toHaveLength(15);
  expect(mugs.products.map((p) => p.title)).toEqual(['Ceramic Coffee Mug', 'Enamel Camping Mug']);
  await stack.nc.flush();
  sniffer.unsubscribe();

  // What went by: three catalogue queries to auth, and Shopify's data in auth's replies.
  const queries = heard.filter((h) => h.subject.endsWith('ratesmith.auth.v1.RunAdminQuery'));
  expect(queries).toHaveLength(3);
  expect(heard.some((h) => h.text.includes(DEMO_CATALOG[0]!.title))).toBe(true);

  const tokens = stack.shopify.oauth.accessTokensOf(SHOP);
  expect(tokens).toHaveLength(1);
  expect(tokens[0]).toMatch(/^shpat_/);
  const carrying = heard.filter(
    (h) => tokens.some((t) => h.text.includes(t)) || /shpat_|shprt_/.test(h.text),
  );
  expect(carrying.map((h) => h.subject)).toEqual([]);
});
