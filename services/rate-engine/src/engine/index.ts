/**
 * @packageDocumentation
 * The rate engine of docs/rates.md: compile a snapshot once, quote any
 * number of carts against it. The carrier callback, the admin preview and the
 * quote command all go through `Quoter.quote` (or `quote`, with scratch space
 * of its own). The room plan is in the service's README.
 */
export * from './program-layout';
export * from './compiled-snapshot';
export * from './compile';
export * from './interpreter';
export * from './hot-tier';
export * from './evaluate';
export * from './money';
export * from './request';
export * from './input';
