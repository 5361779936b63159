/**
 * @packageDocumentation
 * The rate engine of docs/rates.md: compile a snapshot once, quote any
 * number of carts against it. The carrier callback, the admin preview and the
 * quote command all go through `quote`.
 */
export * from './compile';
export * from './evaluate';
export * from './hot';
export * from './money';
export * from './request';
export * from './input';
