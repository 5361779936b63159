/**
 * @packageDocumentation
 * Delivery dates and the services after the regular rate, without protobuf or
 * zod: the admin imports this entry point (`@ratesmith/contracts/delivery`).
 */
export * from './calendar';
export * from './services';
