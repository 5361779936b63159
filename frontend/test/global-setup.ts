import { startSharedApp } from './shared-app';

/** The browser project's globalSetup (jest.config.js): the app its test files share. */
export default async function globalSetup(): Promise<void> {
  await startSharedApp();
}
