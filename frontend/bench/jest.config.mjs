// `npm run bench:editor`: the browser benchmark of the ruleset editor, run by
// jest only for its TypeScript transform and the workspace source mapping
// (the same as the integration project of ../../jest.config.js). It measures
// and prints; it is not part of `npm test`.
import root from '../../jest.config.js';

const integration = root.projects.find((p) => p.displayName === 'integration');
export default {
  rootDir: '../..',
  testTimeout: 600_000,
  transform: integration.transform,
  moduleNameMapper: integration.moduleNameMapper,
  testEnvironment: 'node',
  roots: ['<rootDir>/frontend/bench'],
  testMatch: ['**/*.bench.ts'],
};
