/**
 * @packageDocumentation
 * A local stand-in for Shopify for tests and demo mode: OAuth (authorize,
 * code exchange, token exchange, refresh) and the Admin GraphQL operations
 * the app sends. The app reaches it through @ratesmith/kit's
 * shopifyTransport when SHOPIFY_API_ORIGIN names it.
 */
export * from './carrier-services';
export * from './demo-catalog';
export * from './double';
export * from './graphql';
export { hostParam, signBody, signQuery } from './hmac';
export * from './oauth';
export * from './products';
export * from './execute';
export * from './parse';
export * from './schema';
export * from './validate';
export * from './checkout';
export * from './delivery-defaults';
export * from './delivery-json';
export * from './delivery-profiles';
export * from './delivery-rates';
export * from './bulk-operations';
