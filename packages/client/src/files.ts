/** File input and atomic file output for uploads and downloads. */
import { randomBytes } from 'node:crypto';
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** A file to upload: a path, or its bytes (then a `fileName` is needed for the format). */
export type FileInput = string | URL | Uint8Array;

export interface LoadedFile {
  readonly bytes: Uint8Array;
  readonly fileName: string;
}

export async function loadFile(input: FileInput, fileName: string | undefined): Promise<LoadedFile> {
  if (input instanceof Uint8Array) {
    if (typeof fileName !== 'string' || fileName.trim() === '') {
      throw new TypeError('Expected `fileName` (e.g. "memory.tmx") when the input is a Buffer');
    }
    return { bytes: input, fileName };
  }
  if (typeof input !== 'string' && !(input instanceof URL)) {
    throw new TypeError('Expected a file path, a file URL or a Buffer');
  }
  const bytes = await readFile(input);
  const name = fileName ?? basename(typeof input === 'string' ? input : input.pathname);
  return { bytes, fileName: name };
}

/**
 * Write `bytes` to `output` atomically: a temporary file beside it, then a rename. On failure nothing is
 * left behind and an existing `output` is untouched.
 */
export async function writeFileAtomic(output: string, bytes: Uint8Array): Promise<void> {
  const temporary = join(dirname(output), `.${basename(output)}.${randomBytes(6).toString('hex')}.part`);
  try {
    await writeFile(temporary, bytes);
    await rename(temporary, output);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}
