/**
 * The config's `engines` section and `GLOSSA_ENGINES`: resolved into the service settings, and the embedded
 * server started with them.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseLeftWords } from '@glossa/protocol';
import { describe, expect, it } from 'vitest';
import { ConfigError, connectService, resolveConfig } from '../src/index.js';

describe('engines section', () => {
  it('arrays are orders per default, target or pair; objects are provider settings', () => {
    const config = resolveConfig(
      {
        engines: {
          default: ['pseudo', 'apertium'],
          de: ['openai', 'deepl'],
          'en:ja': ['deepl'],
          openai: { baseUrl: 'http://127.0.0.1:11434/v1', model: 'llama3.1' },
        },
      },
      { root: '/p', env: {} },
    );
    expect(config.service.engines).toEqual({
      order: { default: ['pseudo', 'apertium'], de: ['openai', 'deepl'], 'en:ja': ['deepl'] },
      providers: { openai: { baseUrl: 'http://127.0.0.1:11434/v1', model: 'llama3.1' } },
    });
  });

  it('GLOSSA_ENGINES replaces the order; plain `a,b` is the list for every pair', () => {
    const env = { GLOSSA_ENGINES: 'pseudo,openai' };
    expect(resolveConfig({ engines: { de: ['deepl'] } }, { root: '/p', env }).service.engines).toEqual({
      order: { default: ['pseudo', 'openai'] },
    });
    expect(
      resolveConfig({}, { root: '/p', env: { GLOSSA_ENGINES: 'apertium;de=openai,apertium' } }).service
        .engines,
    ).toEqual({ order: { default: ['apertium'], de: ['openai', 'apertium'] } });
    expect(resolveConfig({}, { root: '/p', env: {} }).service.engines).toBeUndefined();
  });

  it('a key that is neither a language nor a provider is refused with its field', () => {
    expect(() => resolveConfig({ engines: { bing: { key: 'x' } } }, { root: '/p', env: {} })).toThrow(
      ConfigError,
    );
    expect(() => resolveConfig({ engines: { 'not a lang': ['pseudo'] } }, { root: '/p', env: {} })).toThrow(
      /engines\.not a lang/,
    );
  });

  it('the embedded server starts with the order: de served by openai, a wrong name fails the start', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'glossa-core-engines-'));
    try {
      const service = await connectService({
        dataDir,
        engines: {
          order: { default: ['pseudo'], de: ['openai'] },
          providers: { openai: { baseUrl: 'http://127.0.0.1:9/v1', model: 'local' } },
        },
      });
      try {
        const targets = (await service.client.getLanguagesV2('target')).map((language) => language.language);
        // Without the order only pseudo-locales (pseudo) would be targets here.
        expect(targets).toContain('DE');
        expect(targets).toContain('EN-XA');
      } finally {
        await service.close();
      }
      await expect(connectService({ dataDir, engines: { order: { default: ['bing'] } } })).rejects.toThrow(
        /distinct names/,
      );
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('segments every engine failed are reported by takeUntranslated(), once (a chat-completions double that echoes)', async () => {
    // Answers every segment with its source text: the chain retries once, then keeps the source.
    const echo = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      request.on('end', () => {
        const messages = (JSON.parse(body) as { messages: { role: string; content: string }[] }).messages;
        const { segments } = JSON.parse(messages.find((m) => m.role === 'user')!.content) as {
          segments: { id: string; text: string }[];
        };
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(
          JSON.stringify({
            id: 'c',
            object: 'chat.completion',
            created: 0,
            model: 'echo',
            choices: [
              {
                index: 0,
                finish_reason: 'stop',
                logprobs: null,
                message: {
                  role: 'assistant',
                  refusal: null,
                  content: JSON.stringify({ translations: segments }),
                },
              },
            ],
          }),
        );
      });
    });
    await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
    const dataDir = mkdtempSync(join(tmpdir(), 'glossa-core-engines-'));
    try {
      const service = await connectService({
        dataDir,
        collectUntranslated: true,
        engines: {
          order: { default: ['pseudo'], de: ['openai'] },
          providers: {
            openai: { baseUrl: `http://127.0.0.1:${(echo.address() as AddressInfo).port}/v1`, model: 'echo' },
          },
        },
      });
      try {
        const result = await service.client.translateText('The cache is cleared when the model changes.', {
          sourceLang: 'en',
          targetLang: 'de',
        });
        expect(result.text).toBe('The cache is cleared when the model changes.');
        const untranslated = service.takeUntranslated();
        expect(untranslated).toHaveLength(1);
        expect(untranslated[0]).toMatchObject({ source: 'en', target: 'de' });
        expect(untranslated[0]!.attempts[0]!.problems).toContain('the source was returned untranslated');
        expect(service.takeUntranslated()).toHaveLength(0);
      } finally {
        await service.close();
      }
    } finally {
      echo.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('texts translated with English words left are reported by takeLeftWords(), once, embedded and remote (real Apertium en→es)', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'glossa-core-engines-'));
    const texts = ['The house is big.', 'Open the color picker.'];
    const options = { sourceLang: 'en', targetLang: 'es' } as const;
    try {
      const embedded = await connectService({ dataDir, collectUntranslated: true });
      try {
        const results = await embedded.client.translateText(texts, options);
        expect(results[1]!.text).toBe('Abierto el color picker.');
        expect(embedded.takeLeftWords()).toEqual([
          { source: 'en', target: 'es', text: 'Open the color picker.', words: ['picker'] },
        ]);
        expect(embedded.takeLeftWords()).toEqual([]);
        // A translation with a word left is not a failure.
        expect(embedded.takeUntranslated()).toEqual([]);
        const { startServer } = await import('@glossa/server');
        const server = await startServer({
          dataDir: join(dataDir, 'remote'),
          port: 0,
          freePort: 0,
          host: '127.0.0.1',
          logger: false,
          devKey: 'dev-key-left-words',
        });
        try {
          const remote = await connectService({
            dataDir,
            url: server.url,
            apiKey: 'dev-key-left-words',
            collectUntranslated: true,
          });
          await remote.client.translateText(texts, options);
          expect(remote.takeLeftWords()).toEqual([
            { source: 'en', target: 'es', text: 'Open the color picker.', words: ['picker'] },
          ]);
          expect(remote.takeLeftWords()).toEqual([]);
          expect(remote.takeUntranslated()).toEqual([]);
        } finally {
          await server.close();
        }
      } finally {
        await embedded.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);

  it('parseLeftWords reads index:word lists, decodes words and skips the +N count and malformed entries', () => {
    expect([...parseLeftWords('0:picker,r%C3%A9essayer;3:budgeted;x:y;4:%E0;+12')]).toEqual([
      [0, ['picker', 'réessayer']],
      [3, ['budgeted']],
    ]);
    expect(parseLeftWords(null).size).toBe(0);
  });
});
