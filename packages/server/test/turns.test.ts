/**
 * Issue 31: long work on the event loop gives way to short requests (`turns.ts`). A turn of long work
 * (`nextTurn`) does not resolve while a young request is in flight, until it is answered or MAX_WAIT_MS has
 * passed; `inTurns` runs its steps to the end.
 */
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { inTurns, MAX_WAIT_MS, nextTurn } from '../src/turns.js';

describe('long work in turns', () => {
  it('a turn waits for a young request to be answered (or MAX_WAIT_MS at most)', async () => {
    let answer!: () => void;
    let handled!: () => void;
    const inHandler = new Promise<void>((resolve) => {
      handled = resolve;
    });
    let answeredAt = Number.POSITIVE_INFINITY;
    const server = createServer((_request, response) => {
      response.once('finish', () => {
        answeredAt = performance.now();
      });
      answer = () => response.end('ok');
      handled();
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const { port } = server.address() as AddressInfo;
      const reply = fetch(`http://127.0.0.1:${port}/`).then((response) => response.text());
      await inHandler;
      const asked = performance.now();
      const turn = nextTurn().then(() => performance.now());
      // The request is answered a timer later: a turn that did not wait for it would come first.
      setTimeout(() => answer(), 1);
      const turnAt = await turn;
      expect(await reply).toBe('ok');
      expect(turnAt >= answeredAt || turnAt - asked >= MAX_WAIT_MS).toBe(true);
    } finally {
      server.close();
    }
  });

  it('a turn with no request in flight comes, and inTurns runs every step', async () => {
    await nextTurn();
    let steps = 0;
    await inTurns(() => ++steps < 100_000, 0.1);
    expect(steps).toBe(100_000);
  });
});
