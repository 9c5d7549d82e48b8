import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { streamVoice, VoiceStreamError } from '../src/voice-stream.js';
import { startRealServer } from './real-server.js';

const real = await startRealServer();
afterAll(() => real.close());

/** English speech made by Debian's flite (voice kal16: 16 kHz mono WAV). */
const wavFile = join(mkdtempSync(join(tmpdir(), 'glossa-client-voice-')), 'speech.wav');
execFileSync('flite', ['-voice', 'kal16', '-t', 'I would like to buy a ticket to the city.', '-o', wavFile]);

describe('streamVoice against the real server (pocketsphinx, Apertium)', () => {
  it('streams a WAV file and yields the transcript, its Spanish translation and the end of stream', async () => {
    const messages = [];
    for await (const message of streamVoice(real.client().voice, wavFile, {
      sourceMediaContentType: 'audio/auto',
      targetLanguages: ['es'],
    }))
      messages.push(message);
    const transcript = messages.filter((m) => m.type === 'transcript');
    expect(transcript.map((m) => ('text' in m ? m.text : '')).join(' ')).toMatch(/buy a ticket to the city/);
    expect(messages.find((m) => m.type === 'translation')).toMatchObject({ target_language: 'es' });
    expect(messages.at(-1)).toEqual({ type: 'end_of_stream' });
  });

  it('asks for translated speech: speech messages carry base64 Ogg Opus', async () => {
    const types = [];
    for await (const message of streamVoice(real.client().voice, wavFile, {
      sourceMediaContentType: 'audio/auto',
      targetLanguages: ['es'],
      targetMediaContentType: 'audio/ogg;codecs=opus',
    })) {
      if (message.type !== 'partial') types.push(message.type);
      if (message.type === 'speech')
        expect(Buffer.from(message.audio, 'base64').subarray(0, 4).toString()).toBe('OggS');
    }
    expect(types).toEqual(['transcript', 'translation', 'speech', 'end_of_stream']);
  });

  it('streams a Node stream', async () => {
    const { readFileSync } = await import('node:fs');
    const bytes = readFileSync(wavFile);
    const stream = Readable.from([bytes.subarray(0, 1000), bytes.subarray(1000)]);
    const types = [];
    for await (const message of streamVoice(real.client().voice, stream, {
      sourceMediaContentType: 'audio/auto',
    }))
      types.push(message.type);
    // Partial transcripts come first, while the utterance is open.
    expect(types.filter((type) => type !== 'partial')).toEqual(['transcript', 'end_of_stream']);
    expect(types[0]).toBe('partial');
  });

  it('a stream the server refuses ends with a VoiceStreamError carrying the close code', async () => {
    const messages: unknown[] = [];
    const run = async () => {
      for await (const message of streamVoice(real.client().voice, new TextEncoder().encode('not audio'), {
        sourceMediaContentType: 'audio/auto',
      }))
        messages.push(message);
    };
    const error = await run().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VoiceStreamError);
    expect((error as VoiceStreamError).closeCode).toBe(1011);
    expect(messages).toEqual([{ type: 'error', message: expect.stringMatching(/could not be decoded/) }]);
  });
});
