// Two tiers, told apart by file name: unit specs beside the code (*.spec.ts),
// integration specs under each package's test/ folder (*.int.spec.ts) that run
// against real NATS and MongoDB-wire servers the tests start themselves.
// ts-jest in transpile-only mode: type errors are `npm run typecheck`'s job.
const transform = {
  '^.+\\.ts$': [
    'ts-jest',
    { tsconfig: { module: 'commonjs', target: 'es2023', isolatedModules: true } },
  ],
};
// The contracts' subpath entry points, tested from source: one list for the services'
// projects (which map the package's root too) and the admin frontend's.
const contractsSubpaths = {
  '^@ratesmith/contracts/filters$': '<rootDir>/proto/src/filters/index.ts',
  '^@ratesmith/contracts/testing$': '<rootDir>/proto/src/testing.ts',
  '^@ratesmith/contracts/edge$': '<rootDir>/proto/src/edge.ts',
  '^@ratesmith/contracts/delivery$': '<rootDir>/proto/src/delivery/index.ts',
  '^@ratesmith/contracts/shopify-ids$': '<rootDir>/proto/src/shopify-ids.ts',
  '^@ratesmith/contracts/install-form$': '<rootDir>/proto/src/install-form.ts',
  '^@ratesmith/contracts/native-checkout$': '<rootDir>/proto/src/native-rates/checkout.ts',
};
const roots = ['<rootDir>/proto', '<rootDir>/services', '<rootDir>/tools', '<rootDir>/charts'];
const common = {
  roots,
  transform,
  testEnvironment: 'node',
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
  // Workspace packages are tested from source: no build needed for a test run.
  moduleNameMapper: {
    '^@ratesmith/contracts$': '<rootDir>/proto/src/index.ts',
    ...contractsSubpaths,
    '^@ratesmith/kit$': '<rootDir>/services/kit/src/index.ts',
    '^@ratesmith/kit/telemetry$': '<rootDir>/services/kit/src/telemetry.ts',
    '^@ratesmith/kit/shopify$': '<rootDir>/services/kit/src/shopify.ts',
    '^@ratesmith/devstack$': '<rootDir>/tools/devstack/src/index.ts',
    '^@ratesmith/shopify-double$': '<rootDir>/tools/shopify-double/src/index.ts',
  },
};
// The admin frontend: React components in jsdom, tested from source like the rest.
const frontend = {
  displayName: 'frontend',
  roots: ['<rootDir>/frontend/src'],
  testMatch: ['<rootDir>/frontend/src/**/*.spec.ts?(x)'],
  testEnvironment: '<rootDir>/frontend/jsdom-environment.mjs',
  setupFiles: [
    '<rootDir>/frontend/src/test-setup.ts',
    '<rootDir>/frontend/src/test-jsdom-speed.ts',
  ],
  setupFilesAfterEnv: [
    '<rootDir>/frontend/src/test-regions.ts',
    '<rootDir>/frontend/src/test-timeouts.ts',
  ],
  transform: {
    '^.+\\.tsx?$': [
      'ts-jest',
      {
        tsconfig: {
          module: 'commonjs',
          target: 'es2022',
          jsx: 'react-jsx',
          esModuleInterop: true,
          isolatedModules: true,
        },
      },
    ],
    '/node_modules/(iso-3166|d3-[a-z-]+|internmap)/.+\\.m?js$': [
      'ts-jest',
      { tsconfig: { module: 'commonjs', target: 'es2022', allowJs: true, isolatedModules: true } },
    ],
  },
  // ES modules only: iso-3166 (the ISO 3166-2 subdivisions, frontend/src/data/region-table.ts)
  // and the d3 modules the Dashboard's charts (polaris-viz) draw with.
  transformIgnorePatterns: ['/node_modules/(?!(iso-3166|d3-[a-z-]+|internmap)/)'],
  moduleNameMapper: {
    '\\.css$': '<rootDir>/frontend/src/test-style-stub.ts',
    ...contractsSubpaths,
  },
};
module.exports = {
  // Integration tests start servers and processes; unit tests never get near this.
  testTimeout: 60_000,
  // After jest's own: the 20 slowest test files, each one's wall time and the part spent
  // starting stacks (docs/testing.md, "The slowest files").
  reporters: ['default', '<rootDir>/tools/devstack/src/slowest-files-reporter.js'],
  projects: [
    { ...common, displayName: 'unit', testMatch: ['**/src/**/*.spec.ts'] },
    {
      ...common,
      displayName: 'integration',
      testMatch: ['**/test/**/*.int.spec.ts'],
      slowTestThreshold: 20,
    },
    // The browser tests: Chromium against the app as `npm start` runs it. globalSetup starts
    // one app for all of them (jest runs it only when one of these files is selected) and
    // each file works in a shop of its own (frontend/test/shared-app.ts).
    {
      ...common,
      displayName: 'browser',
      roots: ['<rootDir>/frontend/test'],
      testMatch: ['<rootDir>/frontend/test/**/*.int.spec.ts'],
      globalSetup: '<rootDir>/frontend/test/global-setup.ts',
      globalTeardown: '<rootDir>/frontend/test/global-teardown.ts',
      slowTestThreshold: 20,
    },
    frontend,
  ],
};
