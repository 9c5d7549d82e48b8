/** The spine's test helpers, with a test server that has this package's feature plugged in. */
import type { CreateServerOptions } from '@glossa/server';
import { startTestServer as startSpine, type TestServer } from '../../server/test/helpers.js';
import { type LanguageToolsOptions, languageToolsFeature } from '../src/index.js';

export * from '../../server/test/helpers.js';

/**
 * The language tools load their models on first use here (`warmUp: false`): most tests need one or two of
 * them, and loading all in every test file would cost each some 20 s of CPU. test/cold-start.test.ts starts
 * servers with the warm-up.
 */
export async function startTestServer(
  options: CreateServerOptions = {},
  tools: LanguageToolsOptions = { warmUp: false },
): Promise<TestServer> {
  return startSpine({ ...options, features: [languageToolsFeature(tools)] });
}
