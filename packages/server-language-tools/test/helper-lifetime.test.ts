/**
 * The Hunspell helper processes a server starts are stopped by `server.close()` (by the last open server,
 * as they are shared), not left running until the Node process exits. Real servers, real Hunspell.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers.js';

/** Live `hunspell` children of this process, read from /proc. */
function hunspellChildren(): number {
  let count = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // exited meanwhile
    }
    // pid (comm) state ppid ...
    const match = /^\d+ \((.*)\) (\S) (\d+)/.exec(stat);
    if (match?.[1] === 'hunspell' && match[2] !== 'Z' && Number(match[3]) === process.pid) count++;
  }
  return count;
}

const until = async (check: () => boolean) => {
  for (let i = 0; i < 100 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 20));
  return check();
};

async function spellCheckGerman(t: TestServer) {
  const reply = await t.call('/v3/quality/evaluate', {
    json: {
      source_lang: 'en',
      target_lang: 'de',
      segments: [{ source: 'The window', translation: 'Das Fenstr' }],
    },
  });
  expect(reply.status).toBe(200);
  expect(reply.data.segments[0].issues.map((issue: { check: string }) => issue.check)).toContain('spelling');
}

describe('helper processes and server.close()', () => {
  it('the last server to close stops the Hunspell helpers; closing another one leaves them running', async () => {
    const first = await startTestServer();
    const second = await startTestServer();
    try {
      await spellCheckGerman(first);
      expect(hunspellChildren()).toBe(1);
      await first.close();
      expect(hunspellChildren()).toBe(1);
      await spellCheckGerman(second);
      await second.close();
      expect(await until(() => hunspellChildren() === 0)).toBe(true);
    } finally {
      await first.close();
      await second.close();
    }
  });
});
