export * from './app-calls';
export * from './network';
export * from './processes';
export * from './stack';
