/**
 * @packageDocumentation
 * The contracts between Ratesmith services. Generated protobuf code lives in
 * ./gen (regenerate with `npm run proto:gen`; CI fails when it is stale).
 */
export * as authV1 from './gen/ratesmith/auth/v1/auth_pb';
export * as catalogV1 from './gen/ratesmith/catalog/v1/catalog_pb';
export * as commonV1 from './gen/ratesmith/common/v1/error_pb';
export * as rulesV1 from './gen/ratesmith/rules/v1/rules_pb';
export * as rateEngineV1 from './gen/ratesmith/rate_engine/v1/rate_engine_pb';
export * from './snapshot';
export * from './subjects';
export * from './shopify-ids';
export * from './filter-json';
export * from './settings-json';
export * from './settings-fields';
export type * from './edge';
export {
  ADMIN_PAGES,
  ANALYTICS_MAX_DAYS,
  FEE_BUCKETS,
  feeBucketOf,
  MAX_ZONE_IDS,
  PRODUCT_TEXT_KINDS,
  NAVIGATION_TYPES,
  WEB_VITAL_MAX,
} from './edge';
export * from './filters';
export * from './install-form';
export * from './rate-key';
export * from './cart/line';
export * from './recent-rate';
export * from './delivery/calendar';
export * from './delivery/services';
export * from './native-rates/import';
export * from './native-rates/shadow-report';
export * from './native-rates/go-live';
