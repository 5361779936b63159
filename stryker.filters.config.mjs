// Mutation testing of the filter language (docs/testing.md): `npm run mutate:filters`.
// Mutates proto/src/filters (not its specs) and judges each mutant by the
// contracts' unit specs, the engine's configuration otherwise. bus-sizes.spec.ts
// is left out: it measures protobuf sizes (7 s a run, which every static mutant
// of the catalogue would pay again) and asserts nothing about the language; so is
// value-kinds.types.spec.ts, which type-checks the admin and the engine (not in
// the sandbox) and runs none of the language's code.
import engine, { sandboxIgnorePatterns } from './stryker.config.mjs';

const unit = engine.jest.config.projects[0];

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  ...engine,
  mutate: ['proto/src/filters/**/*.ts', '!proto/src/filters/**/*.spec.ts'],
  jest: {
    ...engine.jest,
    config: {
      projects: [
        {
          ...unit,
          roots: ['<rootDir>/proto'],
          testMatch: [
            '<rootDir>/proto/src/**/*.spec.ts',
            '!**/bus-sizes.spec.ts',
            '!**/*.types.spec.ts',
          ],
        },
      ],
    },
  },
  // The sandbox needs only the contracts.
  ignorePatterns: sandboxIgnorePatterns(),
  htmlReporter: { fileName: 'reports/mutation/filters.html' },
  jsonReporter: { fileName: 'reports/mutation/filters.json' },
};
