/**
 * @packageDocumentation
 * The filter language, in one place: the draft shape the admin sends, the
 * catalogue of fields, operators and actions, the limits, and the one
 * validation (drafts → the canonical form the snapshot carries). No
 * protobuf and no zod here: the admin bundles this module from source
 * (`@ratesmith/contracts/filters`).
 */
export * from './catalogue';
export * from './draft';
export * from './limits';
export * from './value-kinds';
export * from './lint';
export * from './sentence';
export * from './validate';
export * from './diff';
export * from './named-texts';
