export * from './servers';
export * from './testing';
export * from './bus';
export * from './cluster';
