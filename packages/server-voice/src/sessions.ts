/**
 * Real-time voice sessions in memory: a session request creates a session and a single-use token that
 * expires after `TOKEN_TTL_MS`; the WebSocket consumes the token. A reconnect (GET ?token=) trades the last
 * token of a session that is not streaming for a fresh one. Sessions are forgotten `SESSION_TTL_MS` after
 * their last use. Tokens are random 256-bit values kept only as SHA-256 hashes.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Caller, ServiceContext } from '@glossa/server/feature';

export const TOKEN_TTL_MS = 60_000;
export const SESSION_TTL_MS = 60 * 60_000;

export interface SessionConfig {
  readonly mediaType: string;
  readonly inputType: string | null;
  readonly source: string;
  readonly targets: readonly string[];
  readonly formality: 'default' | 'more' | 'less';
  /** Terms to keep as written. */
  readonly spokenTerms: readonly string[];
  /** Their words with ARPAbet phones, for the recognizer's dictionary (it adds the ones it lacks). */
  readonly pronunciations: readonly (readonly [string, string])[];
  /** Applied to the translation of every final transcript (checked against each target when created). */
  readonly glossaryId: string | undefined;
  /** Synthesized speech of each translation (`audio/wav`), or none. */
  readonly speech: string | undefined;
}

export interface VoiceSession {
  readonly id: string;
  readonly accountId: string;
  readonly keyId: string;
  /** Who asked for the session (its account's resources apply to the stream). */
  readonly caller: Caller;
  readonly customTag: string;
  readonly config: SessionConfig;
  streaming: boolean;
  lastUsed: number;
  tokenHash: string;
  tokenExpires: number;
  tokenUsed: boolean;
}

export type TokenCheck =
  | { ok: true; session: VoiceSession }
  | { ok: false; reason: 'unknown' | 'used' | 'expired' | 'streaming' };

const hash = (token: string) => createHash('sha256').update(token).digest('hex');

export class VoiceSessions {
  private readonly sessions = new Map<string, VoiceSession>();
  private readonly byToken = new Map<string, string>();

  create(owner: { caller: Caller; customTag: string }, config: SessionConfig) {
    this.sweep();
    const session: VoiceSession = {
      id: randomUUID(),
      accountId: owner.caller.account.id,
      keyId: owner.caller.key.id,
      ...owner,
      config,
      streaming: false,
      lastUsed: Date.now(),
      tokenHash: '',
      tokenExpires: 0,
      tokenUsed: true,
    };
    this.sessions.set(session.id, session);
    return { session, token: this.issue(session) };
  }

  /** A new token for the session of `oldToken` (used or not) when the caller owns it and it is idle. */
  reissue(oldToken: string, accountId: string): { session: VoiceSession; token: string } | undefined {
    this.sweep();
    const id = this.byToken.get(hash(oldToken));
    const session = id === undefined ? undefined : this.sessions.get(id);
    if (!session || session.accountId !== accountId || session.streaming) return undefined;
    return { session, token: this.issue(session) };
  }

  /** Consumes a token for a WebSocket: valid once, before it expires, while the session is idle. */
  consume(token: string): TokenCheck {
    const tokenHash = hash(token);
    const id = this.byToken.get(tokenHash);
    const session = id === undefined ? undefined : this.sessions.get(id);
    if (!session) return { ok: false, reason: 'unknown' };
    if (session.tokenHash !== tokenHash || session.tokenUsed) return { ok: false, reason: 'used' };
    if (Date.now() > session.tokenExpires) return { ok: false, reason: 'expired' };
    if (session.streaming) return { ok: false, reason: 'streaming' };
    session.tokenUsed = true;
    session.streaming = true;
    session.lastUsed = Date.now();
    return { ok: true, session };
  }

  /** The stream of a session ended (normally or not): it can be resumed with a reconnect. */
  release(session: VoiceSession): void {
    session.streaming = false;
    session.lastUsed = Date.now();
  }

  /** Sessions whose WebSocket is open right now. */
  get streamingCount(): number {
    let count = 0;
    for (const session of this.sessions.values()) if (session.streaming) count++;
    return count;
  }

  private issue(session: VoiceSession): string {
    const token = randomBytes(32).toString('base64url');
    session.tokenHash = hash(token);
    session.tokenExpires = Date.now() + TOKEN_TTL_MS;
    session.tokenUsed = false;
    // Old tokens keep pointing at the session (reconnect, and "used" rather than "unknown" on reuse).
    this.byToken.set(session.tokenHash, session.id);
    return token;
  }

  private sweep(): void {
    const now = Date.now();
    for (const [tokenHash, id] of this.byToken) {
      const session = this.sessions.get(id);
      if (!session || (!session.streaming && now - session.lastUsed > SESSION_TTL_MS)) {
        this.byToken.delete(tokenHash);
        this.sessions.delete(id);
      }
    }
  }
}

const registry = new WeakMap<ServiceContext, VoiceSessions>();

/** The sessions of one server (both plan listeners share them). */
export function voiceSessions(context: ServiceContext): VoiceSessions {
  let sessions = registry.get(context);
  if (!sessions) {
    sessions = new VoiceSessions();
    registry.set(context, sessions);
  }
  return sessions;
}
