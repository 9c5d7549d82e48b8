/** The spine's test helpers, with a test server that has this package's feature plugged in. */
import type { CreateServerOptions } from '@glossa/server';
import { startTestServer as startSpine, type TestServer } from '../../server/test/helpers.js';
import { languageToolsFeature } from '../src/index.js';

export * from '../../server/test/helpers.js';

export async function startTestServer(options: CreateServerOptions = {}): Promise<TestServer> {
  return startSpine({ ...options, features: [languageToolsFeature()] });
}
