import { EngineError } from '@glossa/server';
import { describe, expect, it } from 'vitest';
import { LineProcess } from '../src/write/line-process.js';

// A real program (sh) that stops reading: what a checker killed by a timeout does to a large request.
describe('LineProcess: a child that stops reading its input', () => {
  it('fails the request with EngineError (the broken pipe is not an unhandled error that ends the server)', async () => {
    const quitter = new LineProcess('quitter', 'sh', ['-c', 'head -c 1 >/dev/null; exit 0'], 5000);
    // Several MiB: more than the pipe holds, so writing goes on after the child is gone (EPIPE).
    const big = `${'palabrab '.repeat(1_000_000)}\n`;
    const error = await quitter.request(big, (lines) => lines.length >= 1).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EngineError);
    // The next request starts the program again.
    const next = await quitter.request('x\n', (lines) => lines.length >= 1).catch((e: unknown) => e);
    expect(next).toBeInstanceOf(EngineError);
    quitter.close();
  });
});
