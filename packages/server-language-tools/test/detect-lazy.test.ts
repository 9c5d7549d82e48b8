/**
 * The detection models (eld's large database, cld3's WebAssembly build) are not loaded when a server
 * starts, only at the first detection. Checked in a fresh Node process (a real server over loopback):
 * cld3-asm is CommonJS, so its modules show in `require.cache` once loaded.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const tsx = fileURLToPath(new URL('../../../node_modules/.bin/tsx', import.meta.url));
const serverIndex = fileURLToPath(new URL('../../server/src/index.ts', import.meta.url));
const featureIndex = fileURLToPath(new URL('../src/index.ts', import.meta.url));

it('a started server has not loaded the detection models; the first detection loads them', () => {
  const dir = mkdtempSync(join(tmpdir(), 'glossa-detect-lazy-'));
  try {
    const script = join(dir, 'script.mts');
    writeFileSync(
      script,
      `import { createRequire } from 'node:module';
import { join } from 'node:path';
const { startServer } = await import(${JSON.stringify(serverIndex)});
const { languageToolsFeature } = await import(${JSON.stringify(featureIndex)});
const server = await startServer({ dataDir: join(${JSON.stringify(dir)}, 'data'), port: 0, freePort: 0, host: '127.0.0.1', logger: false, features: [languageToolsFeature()] });
const cache = createRequire(import.meta.url).cache;
const loaded = () => Object.keys(cache).some((path) => path.includes('/cld3-asm/'));
const before = loaded();
const reply = await fetch(server.url + '/v3/detect/language', {
  method: 'POST',
  headers: { authorization: 'Service-Auth-Key ' + server.devKey, 'content-type': 'application/json' },
  body: JSON.stringify({ text: ['Das ist ein ganz normaler deutscher Satz.'] }),
});
console.log(JSON.stringify({ before, status: reply.status, after: loaded() }));
await server.close();`,
    );
    const run = spawnSync(tsx, ['--conditions', '@glossa/source', script], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.stderr).not.toMatch(/Error/);
    expect(JSON.parse(run.stdout.trim().split('\n').at(-1)!)).toEqual({
      before: false,
      status: 200,
      after: true,
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 90_000);
