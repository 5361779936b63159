// Two tiers, told apart by file name: unit specs beside the code (*.spec.ts),
// integration specs under each package's test/ folder (*.int.spec.ts) that run
// against real NATS and MongoDB-wire servers the tests start themselves.
const transform = {
  '^.+\\.(t|j)sx?$': [
    '@swc/jest',
    { jsc: { target: 'es2023', parser: { syntax: 'typescript' } }, module: { type: 'commonjs' } },
  ],
};
const roots = ['<rootDir>/proto', '<rootDir>/services', '<rootDir>/tools'];
const common = {
  roots,
  transform,
  // jose ships only ES modules; let swc turn them into CommonJS for jest.
  transformIgnorePatterns: ['/node_modules/(?!jose/)'],
  testEnvironment: 'node',
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
  // Workspace packages are tested from source: no build needed for a test run.
  moduleNameMapper: {
    '^@ratesmith/contracts$': '<rootDir>/proto/src/index.ts',
    '^@ratesmith/kit$': '<rootDir>/services/kit/src/index.ts',
    '^@ratesmith/kit/testing$': '<rootDir>/services/kit/src/testing/index.ts',
    '^@ratesmith/devstack$': '<rootDir>/tools/devstack/src/index.ts',
  },
};
module.exports = {
  projects: [
    { ...common, displayName: 'unit', testMatch: ['**/src/**/*.spec.ts'] },
    {
      ...common,
      displayName: 'integration',
      testMatch: ['**/test/**/*.int.spec.ts'],
      testTimeout: 60_000,
      slowTestThreshold: 20,
    },
  ],
};
