import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { AuthorizationError, GlossaClient, type GlossaError, NotFoundError } from '../src/index.js';
import { startRealServer } from './real-server.js';

const real = await startRealServer();
const work = await mkdtemp(join(tmpdir(), 'glossa-client-files-'));
afterAll(async () => {
  await real.close();
  await rm(work, { recursive: true, force: true });
});
beforeEach(() => {
  real.fetchCalls.count = 0;
  real.fetchCalls.urls.length = 0;
  real.fetchCalls.sent.length = 0;
});

async function failure(promise: Promise<unknown>): Promise<GlossaError> {
  try {
    await promise;
  } catch (error) {
    return error as GlossaError;
  }
  throw new Error('expected the call to fail');
}

const UNITS = [
  ['Save changes', 'Guardar cambios'],
  ['Open the file', 'Abrir el archivo'],
  ['Close the window', 'Cerrar la ventana'],
] as const;

const TMX = `<?xml version="1.0" encoding="UTF-8"?>
<tmx version="1.4">
  <header creationtool="glossa-client-test" creationtoolversion="1" segtype="sentence" o-tmf="none" adminlang="en" srclang="en" datatype="plaintext"/>
  <body>
${UNITS.map(([en, es]) => `    <tu><tuv xml:lang="en"><seg>${en}</seg></tuv><tuv xml:lang="es"><seg>${es}</seg></tuv></tu>`).join('\n')}
  </body>
</tmx>
`;

describe('translation memories against the real server', () => {
  it('imports a TMX Buffer, pages through segments, exports to a file, deletes', async () => {
    const client = real.client();
    const result = await client.translationMemories.import(Buffer.from(TMX), {
      fileName: 'ui.tmx',
      name: 'UI strings',
      pollInterval: 20,
    });
    expect(result.status).toBe('completed');
    const id = result.translation_memory_id ?? '';
    const importJob =
      real.fetchCalls.urls.find((url) => url.includes('/v3/translation_memories/jobs/')) ?? '';
    const jobId = /jobs\/([^/?]+)/.exec(importJob)?.[1] ?? '';
    const job = await client.translationMemories.getJob(jobId);
    expect(job.operation).toBe('import');
    expect(job.results.at(-1)?.status).toBe('completed');
    // The TMX went to the signed upload_url without the key.
    const puts = real.fetchCalls.sent.filter((sent) => sent.method === 'PUT');
    expect(puts).toHaveLength(1);
    expect(puts[0]?.authorization).toBeNull();

    const memory = await client.translationMemories.get(id);
    expect(memory).toMatchObject({ name: 'UI strings', segment_count: 3, source_language: 'en' });
    expect(
      (await client.translationMemories.list()).translation_memories.map(
        (item) => item.translation_memory_id,
      ),
    ).toContain(id);

    real.fetchCalls.count = 0;
    const sources: string[] = [];
    for await (const segment of client.translationMemories.segments(id, { pageSize: 2 }))
      sources.push(segment.source_text);
    expect(sources.sort()).toEqual(UNITS.map(([en]) => en).sort());
    expect(real.fetchCalls.count).toBe(2);

    const output = join(work, 'export.tmx');
    await client.translationMemories.export(id, output, { pollInterval: 20 });
    const exported = await readFile(output, 'utf8');
    expect(exported).toContain('<tmx');
    for (const [, es] of UNITS) expect(exported).toContain(es);

    await client.translationMemories.delete(id);
    expect(await failure(client.translationMemories.get(id))).toBeInstanceOf(NotFoundError);
  });

  it('imports from a file path and applies the memory in translate', async () => {
    const path = join(work, 'from-path.tmx');
    await writeFile(path, TMX);
    const client = real.client();
    const result = await client.translationMemories.import(path, { pollInterval: 20 });
    const translation = await client.translateText('Save changes', {
      targetLang: 'es',
      sourceLang: 'en',
      translationMemoryId: result.translation_memory_id ?? '',
    });
    expect(translation.text).toBe('Guardar cambios');
  });

  it('rejects a Buffer without a file name before any request', async () => {
    await expect(real.client().translationMemories.import(Buffer.from(TMX))).rejects.toThrow(TypeError);
    expect(real.fetchCalls.count).toBe(0);
  });
});

describe('style rules against the real server', () => {
  it('creates a list, edits rules and instructions, and deletes it', async () => {
    const client = real.client();
    const list = await client.styleRules.create({
      name: 'House style',
      language: 'en',
      configuredRules: { dates_and_times: { calendar_era: 'use_bc_and_ad' } },
      customInstructions: [{ label: 'Tone', prompt: 'Use a friendly tone.', sourceLanguage: 'de' }],
    });
    expect(list).toMatchObject({ name: 'House style', language: 'en', version: 1 });
    const id = list.style_id;
    const instructionId = list.custom_instructions?.[0]?.id ?? '';
    expect(instructionId).not.toBe('');

    await client.styleRules.rename(id, 'Style');
    await client.styleRules.replaceConfiguredRules(id, {
      punctuation: { periods_in_academic_degrees: 'do_not_use' },
    });
    const added = await client.styleRules.addInstruction(id, {
      label: 'Short',
      prompt: 'Keep sentences short.',
    });
    await client.styleRules.replaceInstruction(id, instructionId, {
      label: 'Tone',
      prompt: 'Be formal.',
      sourceLanguage: 'de',
    });
    await client.styleRules.deleteInstruction(id, added.id);

    const current = await client.styleRules.get(id);
    expect(current.name).toBe('Style');
    expect(current.configured_rules).toEqual({ punctuation: { periods_in_academic_degrees: 'do_not_use' } });
    expect(current.custom_instructions?.map((instruction) => instruction.prompt)).toEqual(['Be formal.']);
    expect(current.version).toBeGreaterThan(1);
    const listed = await client.styleRules.list({ detailed: true, pageSize: 25 });
    expect(listed.map((item) => item.style_id)).toContain(id);

    await client.styleRules.delete(id);
    expect(await failure(client.styleRules.get(id))).toBeInstanceOf(NotFoundError);
  });

  it('is refused to a free-plan key', async () => {
    const { key } = await real.createAccount({ plan: 'free' });
    const free = new GlossaClient({ authKey: key, serverUrl: real.freeUrl });
    expect(await failure(free.styleRules.list())).toBeInstanceOf(AuthorizationError);
  });
});
