export * from './app-calls';
export * from './network';
export * from './processes';
export * from './stack';
export * from './ingress';
export * from './judged-calls';
