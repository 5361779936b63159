export * from './servers';
export * from './testing';
export * from './bus';
