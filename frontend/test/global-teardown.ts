import { stopSharedApp } from './shared-app';

/** The browser project's globalTeardown (jest.config.js): stops the app globalSetup started. */
export default async function globalTeardown(): Promise<void> {
  await stopSharedApp();
}
