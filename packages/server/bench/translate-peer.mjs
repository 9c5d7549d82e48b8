/**
 * One server of the translate benchmark (bench/translate.ts), in a process of its own run by plain Node:
 * either the built Glossa server (`@glossa/server` resolves to dist/, the code `glossa-server` runs, not
 * the sources through tsx), or the bare Fastify route that answers the same JSON. Plain JavaScript because
 * it runs without tsx. The parent forks it and talks over IPC:
 *
 *   argv: glossa <dataDir> <engineCacheEntries | default>  |  bare <responseFile>
 *   → {url, key?}                once listening
 *   ← 'cpu'   → {cpu}            CPU time of this process so far, µs (user + system)
 *   ← 'stop'                     close and exit
 */
import { readFileSync } from 'node:fs';
import { createPseudoEngine, startServer } from '@glossa/server';
import Fastify from 'fastify';

const [kind, ...args] = process.argv.slice(2);
let close;
if (kind === 'glossa') {
  const [dataDir, cacheEntries] = args;
  const server = await startServer({
    dataDir,
    port: 0,
    freePort: 0,
    logger: false,
    rateLimit: false,
    engines: [createPseudoEngine()],
    ...(cacheEntries === 'default' ? {} : { engineCacheEntries: Number(cacheEntries) }),
  });
  close = () => server.close();
  process.send({ url: server.url, key: server.devKey });
} else if (kind === 'bare') {
  const response = readFileSync(args[0], 'utf8');
  const bare = Fastify({ logger: false });
  bare.post('/v2/translate', async (_request, reply) => reply.type('application/json').send(response));
  await bare.listen({ port: 0, host: '127.0.0.1' });
  close = () => bare.close();
  process.send({ url: `http://127.0.0.1:${bare.server.address().port}` });
} else {
  throw new Error(`translate-peer: expected 'glossa' or 'bare', got '${kind}'`);
}

process.on('message', async (message) => {
  if (message === 'cpu') {
    const usage = process.cpuUsage();
    process.send({ cpu: usage.user + usage.system });
  } else if (message === 'stop') {
    await close();
    process.exit(0);
  }
});
