// Mutation testing of the rate engine (docs/testing.md): `npm run mutate`.
// Mutates services/rate-engine/src/engine (not its specs) and the cart line it
// parses Shopify's request into (proto/src/cart/line.ts), and judges each mutant
// by the engine's and the cart line's unit specs only; the integration tests are
// too slow for this.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const jestConfig = require('./jest.config.js');
const unit = jestConfig.projects.find((p) => p.displayName === 'unit');

/**
 * A sandbox's ignorePatterns: every top-level entry left out but the root's
 * package and configs and the contracts (their build too left out), then `more`
 * (the filter language's config, stryker.filters.config.mjs, needs no more).
 */
export function sandboxIgnorePatterns(...more) {
  return [
    '/*',
    '!/package.json',
    '!/jest.config.js',
    '!/tsconfig*.json',
    '!/proto',
    '/proto/dist',
    ...more,
  ];
}

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'jest',
  plugins: ['@stryker-mutator/jest-runner'],
  mutate: [
    'services/rate-engine/src/engine/**/*.ts',
    '!services/rate-engine/src/engine/**/*.spec.ts',
    'proto/src/cart/line.ts',
  ],
  jest: {
    projectType: 'custom',
    // The root config with one project: the unit project, narrowed to the engine's specs.
    config: {
      projects: [
        {
          ...unit,
          roots: ['<rootDir>/services/rate-engine', '<rootDir>/proto/src/cart'],
          testMatch: [
            '<rootDir>/services/rate-engine/src/engine/**/*.spec.ts',
            '<rootDir>/proto/src/cart/*.spec.ts',
          ],
        },
      ],
    },
    enableFindRelatedTests: false,
  },
  coverageAnalysis: 'perTest',
  // Other people share the machine's two cores.
  concurrency: 1,
  timeoutMS: 20_000,
  // The sandbox needs only the engine, its fixtures and the contracts it imports.
  ignorePatterns: sandboxIgnorePatterns(
    '!/services',
    '/services/*',
    '!/services/rate-engine',
    '/services/rate-engine/dist',
    // The benchmarks (services/rate-engine/bench) are not tests: the sandbox leaves them out.
    '/services/rate-engine/bench',
  ),
  tempDirName: 'reports/mutation/.stryker-tmp',
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/index.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  thresholds: { high: 95, low: 90, break: null },
};
