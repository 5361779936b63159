/**
 * @packageDocumentation
 * What every Ratesmith service shares. Telemetry has its own entry point,
 * `@ratesmith/kit/telemetry`, which main.ts imports before anything else;
 * Shopify's library has `@ratesmith/kit/shopify`, so services that never call
 * Shopify (rules, the rate engine) do not load it.
 */
export * from './config';
export * from './deadline';
export * from './errors';
export * from './health';
export * from './lifecycle';
export * from './logger';
export * from './mongo';
export * from './nats';
export * from './nkey';
export * from './rpc';
export * from './service-main';
export * from './shopify-transport';
export * from './shop-domain';
export * from './events';
export * from './jetstream-replicas';
export * from './bucket-feed';
export * from './bus-access';
export * from './redact';
export * from './rate-limiter';
export * from './heavy-calls';
export * from './lane';
export * from './lane-thread';
export * from './bus-payload';
export * from './json-nesting';
export * from './snapshot-codec';
