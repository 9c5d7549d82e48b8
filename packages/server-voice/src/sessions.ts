/**
 * Real-time voice sessions in memory: a session request creates a session and a single-use token that
 * expires after `TOKEN_TTL_MS`; the WebSocket consumes the token. A reconnect (GET ?token=) trades the last
 * token of a session that is not streaming for a fresh one. Sessions are forgotten `SESSION_TTL_MS` after
 * their last use. Tokens are random 256-bit values kept only as SHA-256 hashes.
 *
 * On a fleet (`databaseUrl`: the instances share one PostgreSQL), sessions and tokens are valid on every
 * instance: each session, each token hash (with its expiry), the session's latest token and whether it is
 * streaming are kept in the storage's settings; a token is used once fleet-wide (an atomic claim), and an
 * instance that sees a token of a session it does not hold takes the session over (its configuration and
 * owner are in the settings), so a reconnect or a WebSocket may reach any instance. An instance that
 * forgets a session also deletes its settings (and those of the tokens it issued or saw) when the session
 * has been idle fleet-wide for `SESSION_TTL_MS`: its latest token older than that, and no stream on it
 * since (a stream's end is written with its time).
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Caller, ServiceContext } from '@glossa/server/feature';

export const TOKEN_TTL_MS = 60_000;
export const SESSION_TTL_MS = 60 * 60_000;

export interface SessionConfig {
  readonly mediaType: string;
  /** ffmpeg's input options for the media type, `null` for raw 16 kHz s16le. */
  readonly inputType: readonly string[] | null;
  readonly source: string;
  readonly targets: readonly string[];
  /** Leans the translations into each target that has formality (the default elsewhere). */
  readonly formality: 'default' | 'more' | 'less';
  /** How the WebSocket's messages are written: JSON text frames, or MessagePack binary frames. */
  readonly messageFormat: 'json' | 'msgpack';
  /** Terms to keep as written. */
  readonly spokenTerms: readonly string[];
  /** The glossary's source terms written with capitals, for the transcripts (`punctuate.ts`). */
  readonly glossaryTerms: readonly string[];
  /** Their words with ARPAbet phones, for the recognizer's dictionary (it adds the ones it lacks). */
  readonly pronunciations: readonly (readonly [string, string])[];
  /** Applied to the translation of every final transcript (checked against each target when created). */
  readonly glossaryId: string | undefined;
  /** The media type of the synthesized speech of translations (`media.ts`), or none. */
  readonly speech: string | undefined;
  /** The targets whose translations are spoken. */
  readonly speechTargets: readonly string[];
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

/**
 * A token checked for a WebSocket. A refusal of a known session's token carries the session's
 * `messageFormat`, which its error is written in (an unknown token's: the client's first frame says it,
 * socket.ts `refuseUnknown`).
 */
export type TokenCheck =
  | { ok: true; session: VoiceSession }
  | { ok: false; reason: 'unknown' }
  | { ok: false; reason: 'used' | 'expired' | 'streaming'; format: SessionConfig['messageFormat'] }
  | { ok: false; reason: 'plan'; plan: Plan; format: SessionConfig['messageFormat'] };

/** The refusal of a known session's token, in the session's message format. */
const refuse = (session: VoiceSession, reason: 'used' | 'expired' | 'streaming'): TokenCheck => ({
  ok: false,
  reason,
  format: session.config.messageFormat,
});
const otherPlan = (session: VoiceSession): TokenCheck => ({
  ok: false,
  reason: 'plan',
  plan: session.caller.account.plan,
  format: session.config.messageFormat,
});

type Plan = Caller['account']['plan'];

const hash = (token: string) => createHash('sha256').update(token).digest('hex');

/** What the instances of a fleet share: the storage's settings. */
export interface SharedSettings {
  get(name: string): Promise<string | undefined>;
  set(name: string, value: string): Promise<void>;
  /** Sets the value when the setting has none yet; returns the value it has now. */
  claim(name: string, value: string): Promise<string>;
  /** Deletes these settings. */
  delete(names: readonly string[]): Promise<void>;
  /** The owner of a session taken over from another instance. */
  caller(accountId: string, keyId: string): Promise<Caller | undefined>;
}

interface SharedSession {
  accountId: string;
  keyId: string;
  customTag: string;
  config: SessionConfig;
}

const NAMES = {
  session: (id: string) => `voice_session:${id}`,
  token: (tokenHash: string) => `voice_token:${tokenHash}`,
  used: (tokenHash: string) => `voice_token_used:${tokenHash}`,
  latest: (id: string) => `voice_session_token:${id}`,
  stream: (id: string) => `voice_session_stream:${id}`,
};

export class VoiceSessions {
  private readonly sessions = new Map<string, VoiceSession>();
  private readonly byToken = new Map<string, string>();
  /** Unique to this instance: the value it claims a token with. */
  private readonly instance = randomUUID();

  constructor(
    private readonly shared?: SharedSettings,
    private readonly sessionTtlMs = SESSION_TTL_MS,
  ) {}

  async create(owner: { caller: Caller; customTag: string }, config: SessionConfig) {
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
    const token = this.issue(session);
    if (this.shared) {
      const record: SharedSession = {
        accountId: session.accountId,
        keyId: session.keyId,
        customTag: session.customTag,
        config,
      };
      await this.shared.set(NAMES.session(session.id), JSON.stringify(record));
      await this.share(session);
    }
    return { session, token };
  }

  /** A new token for the session of `oldToken` (used or not) when the caller owns it and it is idle. */
  async reissue(
    oldToken: string,
    accountId: string,
  ): Promise<{ session: VoiceSession; token: string } | undefined> {
    this.sweep();
    const tokenHash = hash(oldToken);
    const id = this.byToken.get(tokenHash);
    let session = id === undefined ? undefined : this.sessions.get(id);
    if (this.shared) {
      session ??= await this.adopt(tokenHash);
      if (!session || session.accountId !== accountId) return undefined;
      if ((await this.shared.get(NAMES.stream(session.id))) === 'streaming') return undefined;
      const token = this.issue(session);
      await this.share(session);
      return { session, token };
    }
    if (!session || session.accountId !== accountId || session.streaming) return undefined;
    return { session, token: this.issue(session) };
  }

  /**
   * Consumes a token for a WebSocket: valid once (fleet-wide), before it expires, while the session is idle,
   * on the base URL of the plan of the session's account (`plan`: the plan of the listener it came to; a
   * token refused for its plan is not used up).
   */
  async consume(token: string, plan: Plan): Promise<TokenCheck> {
    if (!this.shared) return this.consumeLocal(token, plan);
    const tokenHash = hash(token);
    const record = await this.shared.get(NAMES.token(tokenHash));
    if (record === undefined) return { ok: false, reason: 'unknown' };
    const { session: id, expires } = JSON.parse(record) as { session: string; expires: number };
    const session = this.sessions.get(id) ?? (await this.adopt(tokenHash));
    if (!session) return { ok: false, reason: 'unknown' };
    if (session.caller.account.plan !== plan) return otherPlan(session);
    if ((await this.shared.get(NAMES.latest(id))) !== tokenHash) return refuse(session, 'used');
    if ((await this.shared.get(NAMES.used(tokenHash))) !== undefined) return refuse(session, 'used');
    if (Date.now() > expires) return refuse(session, 'expired');
    if ((await this.shared.get(NAMES.stream(id))) === 'streaming') return refuse(session, 'streaming');
    if ((await this.shared.claim(NAMES.used(tokenHash), this.instance)) !== this.instance)
      return refuse(session, 'used');
    await this.shared.set(NAMES.stream(id), 'streaming');
    session.tokenUsed = true;
    session.streaming = true;
    session.lastUsed = Date.now();
    return { ok: true, session };
  }

  /** The session of a token issued by another instance of the fleet, taken over here; undefined if none. */
  private async adopt(tokenHash: string): Promise<VoiceSession | undefined> {
    if (!this.shared) return undefined;
    const record = await this.shared.get(NAMES.token(tokenHash));
    if (record === undefined) return undefined;
    const { session: id } = JSON.parse(record) as { session: string };
    const local = this.sessions.get(id);
    if (local) return local;
    const stored = await this.shared.get(NAMES.session(id));
    if (stored === undefined) return undefined;
    const shared = JSON.parse(stored) as SharedSession;
    const caller = await this.shared.caller(shared.accountId, shared.keyId);
    if (!caller) return undefined;
    const session: VoiceSession = {
      id,
      accountId: shared.accountId,
      keyId: shared.keyId,
      caller,
      customTag: shared.customTag,
      config: shared.config,
      streaming: false,
      lastUsed: Date.now(),
      tokenHash,
      tokenExpires: 0,
      tokenUsed: true,
    };
    this.sessions.set(id, session);
    this.byToken.set(tokenHash, id);
    return session;
  }

  private async share(session: VoiceSession): Promise<void> {
    if (!this.shared) return;
    await this.shared.set(
      NAMES.token(session.tokenHash),
      JSON.stringify({ session: session.id, expires: session.tokenExpires }),
    );
    await this.shared.set(NAMES.latest(session.id), session.tokenHash);
  }

  private consumeLocal(token: string, plan: Plan): TokenCheck {
    const tokenHash = hash(token);
    const id = this.byToken.get(tokenHash);
    const session = id === undefined ? undefined : this.sessions.get(id);
    if (!session) return { ok: false, reason: 'unknown' };
    if (session.caller.account.plan !== plan) return otherPlan(session);
    if (session.tokenHash !== tokenHash || session.tokenUsed) return refuse(session, 'used');
    if (Date.now() > session.tokenExpires) return refuse(session, 'expired');
    if (session.streaming) return refuse(session, 'streaming');
    session.tokenUsed = true;
    session.streaming = true;
    session.lastUsed = Date.now();
    return { ok: true, session };
  }

  /** The stream of a session ended (normally or not): it can be resumed with a reconnect. */
  release(session: VoiceSession): Promise<void> {
    session.streaming = false;
    session.lastUsed = Date.now();
    // `idle:<time>`: when the last stream ended, for the fleet-wide idle time of the sweep.
    return this.shared ? this.shared.set(NAMES.stream(session.id), `idle:${Date.now()}`) : Promise.resolve();
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
    const forgotten = new Map<string, string[]>();
    for (const [tokenHash, id] of this.byToken) {
      const session = this.sessions.get(id);
      if (!session || (!session.streaming && now - session.lastUsed > this.sessionTtlMs)) {
        this.byToken.delete(tokenHash);
        this.sessions.delete(id);
        forgotten.set(id, [...(forgotten.get(id) ?? []), tokenHash]);
      }
    }
    if (this.shared)
      for (const [id, tokenHashes] of forgotten) void this.forget(this.shared, id, tokenHashes);
  }

  /**
   * Deletes the settings of a session this instance forgot, unless it was used on the fleet within the
   * session TTL (another instance holds it then, and deletes them when it forgets it). Best effort: a
   * failure leaves a few rows behind.
   */
  private async forget(shared: SharedSettings, id: string, tokenHashes: string[]): Promise<void> {
    try {
      const stream = await shared.get(NAMES.stream(id));
      if (stream === 'streaming') return;
      const ended = Number(stream?.slice('idle:'.length) ?? 0);
      const latest = await shared.get(NAMES.latest(id));
      const record = latest === undefined ? undefined : await shared.get(NAMES.token(latest));
      const issued =
        record === undefined ? 0 : (JSON.parse(record) as { expires: number }).expires - TOKEN_TTL_MS;
      if (Date.now() - Math.max(ended || 0, issued) <= this.sessionTtlMs) return;
      const tokens = new Set([...tokenHashes, ...(latest === undefined ? [] : [latest])]);
      await shared.delete([
        NAMES.session(id),
        NAMES.latest(id),
        NAMES.stream(id),
        ...[...tokens].flatMap((tokenHash) => [NAMES.token(tokenHash), NAMES.used(tokenHash)]),
      ]);
    } catch {
      // Kept: rows of an old session are harmless (a token in them has expired).
    }
  }
}

const registry = new WeakMap<ServiceContext, VoiceSessions>();

/** A storage's settings as what the instances of a fleet share about sessions. */
export function sharedSettings(storage: ServiceContext['storage']): SharedSettings {
  return {
    get: (name) => storage.getSetting(name),
    set: (name, value) => storage.setSetting(name, value),
    claim: (name, value) => storage.claimSetting(name, value),
    delete: (names) => storage.deleteSettings(names),
    async caller(accountId, keyId) {
      const account = await storage.getAccount(accountId);
      return account && { account, key: { id: keyId, accountId } };
    },
  };
}

/** The sessions of one server (both plan listeners share them). */
export function voiceSessions(context: ServiceContext): VoiceSessions {
  let sessions = registry.get(context);
  if (!sessions) {
    // On a fleet (one PostgreSQL for every instance), through the storage's settings.
    const fleet = context.options.databaseUrl !== undefined;
    sessions = new VoiceSessions(fleet ? sharedSettings(context.storage) : undefined);
    registry.set(context, sessions);
  }
  return sessions;
}
