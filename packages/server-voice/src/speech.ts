/**
 * Synthesized speech of translations with Debian's `espeak-ng`: one process per text, reading the text on
 * stdin (so no text is ever taken for an option) and writing a WAV file (22.05 kHz mono 16-bit).
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

function installedVoices(): Set<string> {
  try {
    const listing = execFileSync('espeak-ng', ['--voices'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    return new Set(
      listing
        .split('\n')
        .slice(1)
        .map((line) => line.trim().split(/\s+/)[1]?.toLowerCase())
        .filter((code): code is string => Boolean(code)),
    );
  } catch {
    return new Set();
  }
}

const VOICES = installedVoices();
/** Language codes whose espeak-ng voice differs from the code itself. */
const ALIASES: Record<string, string> = { fr: 'fr-fr', en: 'en-us', 'pt-pt': 'pt', zh: 'cmn' };

/** The espeak-ng voice for a target language code, if one is installed. */
export function speechVoice(target: string): string | undefined {
  const code = target.toLowerCase();
  for (const candidate of [code, ALIASES[code], code.split('-')[0], ALIASES[code.split('-')[0] ?? '']]) {
    if (candidate && VOICES.has(candidate)) return candidate;
  }
  return undefined;
}

/** A WAV file of `text` spoken in `target`'s voice. */
export async function synthesize(text: string, target: string): Promise<Buffer> {
  const voice = speechVoice(target);
  if (!voice) throw new Error(`No espeak-ng voice for ${target}.`);
  const dir = await mkdtemp(join(tmpdir(), 'glossa-speech-'));
  const file = join(dir, 'speech.wav');
  try {
    await new Promise<void>((resolve, reject) => {
      const child = spawn('espeak-ng', ['-v', voice, '--stdin', '-w', file], {
        stdio: ['pipe', 'ignore', 'ignore'],
      });
      child.on('error', reject);
      child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`espeak-ng exited ${code}.`))));
      child.stdin.on('error', () => {});
      child.stdin.end(text);
    });
    return await readFile(file);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
