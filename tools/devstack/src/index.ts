export * from './servers';
export * from './testing';
export * from './bus';
export * from './cluster';
export * from './demo-app';
export * from './bench-table';
export * from './stack-timings';
export * from './metric-samples';
export { freeze, thaw } from './faults/processes';
