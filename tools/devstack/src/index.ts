export * from './servers';
export * from './testing';
