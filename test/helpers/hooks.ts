import { stopTestEnv } from './env';

/** Mocha global fixture: the shared stack is stopped once, after every file ran. */
export async function mochaGlobalTeardown() {
  await stopTestEnv();
}
