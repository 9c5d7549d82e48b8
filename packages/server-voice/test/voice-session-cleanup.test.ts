/**
 * The settings rows of voice sessions on a fleet are deleted when the session has been idle fleet-wide for
 * the session TTL, and kept while another instance still uses it. Two `VoiceSessions` (two instances) share
 * one real storage (a SQLite file: the settings behave as on PostgreSQL), with a TTL of 300 ms.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSqliteStorage, type Storage } from '@glossa/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SessionConfig, sharedSettings, VoiceSessions } from '../src/sessions.js';

const TTL = 300;
const CONFIG: SessionConfig = {
  mediaType: 'audio/auto',
  inputType: [],
  source: 'en',
  targets: ['es'],
  formality: 'default',
  messageFormat: 'json',
  spokenTerms: [],
  glossaryTerms: [],
  pronunciations: [],
  glossaryId: undefined,
  speech: undefined,
  speechTargets: [],
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let dir: string;
let storage: Storage;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'glossa-voice-cleanup-'));
  storage = createSqliteStorage(dir);
});
afterAll(async () => {
  await storage?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function owner() {
  const account = await storage.createAccount({
    id: `acct-${Math.random().toString(36).slice(2)}`,
    plan: 'paid',
    admin: false,
    detectionBeta: false,
    qualityAlpha: false,
    voiceJobsAlpha: false,
    memoryMatches: false,
    characterLimit: 1_000_000,
  });
  return { caller: { account, key: { id: 'key-1', accountId: account.id } }, customTag: '' };
}
const rowsOf = async (sessionId: string) =>
  (
    await Promise.all(
      ['voice_session', 'voice_session_token', 'voice_session_stream'].map((prefix) =>
        storage.getSetting(`${prefix}:${sessionId}`),
      ),
    )
  ).filter((value) => value !== undefined).length;

describe('voice session settings on a fleet', () => {
  it('are deleted once the session has been idle fleet-wide for the TTL, with its tokens', async () => {
    const a = new VoiceSessions(sharedSettings(storage), TTL);
    const { session, token } = await a.create(await owner(), CONFIG);
    expect(await rowsOf(session.id)).toBe(2);
    expect((await a.consume(token, 'paid')).ok).toBe(true);
    await a.release(session);
    expect(await rowsOf(session.id)).toBe(3);
    await sleep(TTL + 100);
    // The next request on this instance sweeps: the old session is forgotten and its rows deleted.
    await a.create(await owner(), CONFIG);
    await sleep(200);
    expect(await rowsOf(session.id)).toBe(0);
    // Its token is unknown now (it had expired anyway).
    expect(await new VoiceSessions(sharedSettings(storage), TTL).consume(token, 'paid')).toEqual({
      ok: false,
      reason: 'unknown',
    });
  });

  it('are kept while another instance used the session within the TTL', async () => {
    const a = new VoiceSessions(sharedSettings(storage), TTL);
    const b = new VoiceSessions(sharedSettings(storage), TTL);
    const created = await a.create(await owner(), CONFIG);
    await sleep(TTL + 100);
    // Instance B takes the session over (a reconnect reaching it) just before A forgets it.
    const renewed = await b.reissue(created.token, created.session.accountId);
    expect(renewed?.session.id).toBe(created.session.id);
    await a.create(await owner(), CONFIG);
    await sleep(200);
    expect(await rowsOf(created.session.id)).toBe(2);
    expect((await b.consume(renewed!.token, 'paid')).ok).toBe(true);
  });
});
