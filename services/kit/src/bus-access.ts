import {
  authV1,
  catalogV1,
  rateEngineV1,
  rpcGroup,
  rpcSubject,
  rulesV1,
  eventSubject,
  SNAPSHOT_BUCKET,
} from '@ratesmith/contracts';
import { eventConsumerName, eventsStreamName } from './events';
import { inboxPrefix } from './nats';

/**
 * What each service may do on NATS: the one list the NATS server's
 * authorization is generated from (`npm start` and the tests through
 * tools/devstack, production through the chart's `files/bus-access.json`,
 * which a test keeps equal to this). Everything not listed is refused by the
 * server, so a pod that can reach NATS cannot run Shopify queries, rewrite snapshots,
 * publish events or join another service's queue group (docs/operations.md).
 */

export const BUS_SERVICES = ['auth', 'rules', 'catalog', 'rate-engine', 'gateway'] as const;
export type BusService = (typeof BUS_SERVICES)[number];

export interface BusGrant {
  publish: string[];
  subscribe: string[];
}

type Method = Parameters<typeof rpcSubject>[0];

/** The subjects of some methods of a service (names as the generated client spells them). */
function calls<M extends Record<string, Method>>(
  service: { method: M },
  methods: (keyof M & string)[],
  prefix: string,
): string[] {
  return methods.map((name) => rpcSubject(service.method[name]!, prefix));
}

/** Answering RPCs: the service's own subjects and the discovery subjects of NATS services. */
function answers(service: Parameters<typeof rpcGroup>[0], prefix: string): string[] {
  return [`${rpcGroup(service, prefix)}.>`, '$SRV.>'];
}

/** JetStream API subjects of one stream (its info and its consumers). */
function streamApi(stream: string, verbs: string[]): string[] {
  return verbs.map((verb) => `$JS.API.${verb}.${stream}`);
}

export interface BusAccessOptions {
  /** NATS_SUBJECT_PREFIX of the deployment ('' normally). */
  prefix?: string;
  /** SNAPSHOT_BUCKET of the deployment. */
  bucket?: string;
}

export function busGrants(options: BusAccessOptions = {}): Record<BusService, BusGrant> {
  const prefix = options.prefix ?? '';
  const bucket = options.bucket ?? SNAPSHOT_BUCKET;
  const kvStream = `KV_${bucket}`;
  const events = eventsStreamName(prefix);
  const shopRedacted = eventSubject(authV1.ShopRedactedSchema, prefix);
  const inbox = (service: BusService) => `${inboxPrefix(service)}.>`;
  // Creating or growing the events stream is how a publisher or consumer makes sure it exists.
  // The account's JetStream info: how a JetStream client checks that JetStream is there.
  const jetStream = '$JS.API.INFO';
  const eventsStream = [
    jetStream,
    ...streamApi(events, ['STREAM.INFO', 'STREAM.CREATE', 'STREAM.UPDATE']),
  ];
  // One named durable consumer of the events stream (services/kit/src/events.ts), no
  // other: a service cannot make more consumers on the stream than the one it reads with.
  const consumes = (consumer: string) => [
    ...eventsStream,
    `$JS.API.CONSUMER.CREATE.${events}.${consumer}`,
    `$JS.API.CONSUMER.CREATE.${events}.${consumer}.>`,
    `$JS.API.CONSUMER.DURABLE.CREATE.${events}.${consumer}`,
    `$JS.API.CONSUMER.INFO.${events}.${consumer}`,
    `$JS.API.CONSUMER.MSG.NEXT.${events}.${consumer}`,
    `$JS.ACK.${events}.${consumer}.>`,
  ];
  // Snapshots are read by direct gets only (services/kit/src/bucket-feed.ts): no consumer.
  // The grant to create one cannot tell pull from push, and the server delivers a push
  // consumer's messages to any `deliver_subject`, past its creator's publish grants.
  const readsSnapshots = [
    jetStream,
    ...streamApi(kvStream, ['STREAM.INFO', 'STREAM.MSG.GET']),
    `$JS.API.DIRECT.GET.${kvStream}`,
    `$JS.API.DIRECT.GET.${kvStream}.>`,
  ];
  return {
    auth: {
      publish: [
        ...calls(rulesV1.RulesService, ['setRateKey'], prefix),
        shopRedacted,
        ...eventsStream,
      ],
      subscribe: [...answers(authV1.AuthService, prefix), inbox('auth')],
    },
    rules: {
      publish: [
        // Only rules writes the snapshots checkout prices come from.
        `$KV.${bucket}.>`,
        ...streamApi(kvStream, ['STREAM.CREATE', 'STREAM.UPDATE']),
        ...readsSnapshots,
        eventSubject(rulesV1.SnapshotPublishedSchema, prefix),
        // The first whole-catalog export of a shop whose rules name a product type or tag.
        ...calls(catalogV1.CatalogService, ['exportProducts'], prefix),
        // Shop redactions (services/rules/src/events/shop-redacted.ts).
        ...consumes(eventConsumerName('rules', authV1.ShopRedactedSchema)),
      ],
      subscribe: [...answers(rulesV1.RulesService, prefix), inbox('rules')],
    },
    catalog: {
      publish: [
        // Shopify's catalogue, read by auth with the shop's token (which never travels on
        // the bus): only the named read queries of RunAdminQuery. Nobody may call the
        // retired GetAccessToken.
        ...calls(authV1.AuthService, ['runAdminQuery'], prefix),
        ...calls(rulesV1.RulesService, ['addProductRules', 'putProductFacts'], prefix),
      ],
      subscribe: [...answers(catalogV1.CatalogService, prefix), inbox('catalog')],
    },
    'rate-engine': {
      publish: [
        ...readsSnapshots,
        // The callbacks' outcomes, in batches (services/rate-engine/src/outcomes/recorder.ts).
        ...calls(rulesV1.RulesService, ['recordCheckoutOutcomes'], prefix),
      ],
      subscribe: [
        ...answers(rateEngineV1.RateEngineService, prefix),
        inbox('rate-engine'),
        // Rules' word that a snapshot was written: the engine reads the bucket at once.
        eventSubject(rulesV1.SnapshotPublishedSchema, prefix),
      ],
    },
    gateway: {
      publish: [
        ...calls(
          authV1.AuthService,
          [
            'getShop',
            'beginInstall',
            'beginOAuth',
            'completeOAuth',
            'exchangeSessionToken',
            'handleWebhook',
            'getCarrierStatus',
            'checkCarrierService',
            'getShippingZones',
            'setShippingZones',
            'getShippingRates',
            'setNativeRatesActive',
            'getShopCurrency',
          ],
          prefix,
        ),
        ...calls(
          catalogV1.CatalogService,
          [
            'listProducts',
            'listVariants',
            'addProducts',
            'lookUpProducts',
            'refreshProducts',
            'listProductTexts',
          ],
          prefix,
        ),
        ...calls(rateEngineV1.RateEngineService, ['previewRates'], prefix),
        ...calls(
          rulesV1.RulesService,
          [
            'listRulesets',
            'createRuleset',
            'toggleRuleset',
            'renameRuleset',
            'deleteRuleset',
            'duplicateRuleset',
            'getRulesetFilters',
            'saveRulesetFilters',
            'listVersions',
            'getVersion',
            'restoreVersion',
            'listActivity',
            'listProductRules',
            'toggleProductRule',
            'deleteProductRule',
            'getProductRuleFilters',
            'saveProductRuleFilters',
            'getSettings',
            'saveSettings',
            'getCheckoutOutcomes',
            'getAnalytics',
            'getFilterAnalytics',
            'exportConfig',
            'importConfig',
            'listRecentCheckouts',
            'getRecentCheckout',
            'startShadow',
            'stopShadow',
            'getShadowReport',
            'goLive',
            'undoGoLive',
          ],
          prefix,
        ),
      ],
      subscribe: [inbox('gateway')],
    },
  };
}
