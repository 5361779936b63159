export * from './app-calls';
export * from './load-loop';
export * from './network';
export * from './processes';
export * from './stack';
