import { randomUUID } from 'node:crypto';
import { readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { generateKey, hashKey, planOfKey } from './keys.js';
import type { Account, Plan, Storage } from './storage/storage.js';

export interface CreateAccountOptions {
  plan: Plan;
  admin?: boolean;
  detectionBeta?: boolean;
  qualityAlpha?: boolean;
  /** Enrolled in the asynchronous voice jobs alpha (`POST /v3/voice/jobs`; others get 403). */
  voiceJobsAlpha?: boolean;
  memoryMatches?: boolean;
  /** Monthly character limit. Default: 500,000 (free) or 1,000,000,000,000 (paid, i.e. unlimited). */
  characterLimit?: number;
}

export interface CreatedAccount {
  readonly accountId: string;
  /** The key in clear: returned once, never stored. */
  readonly key: string;
}

export const DEFAULT_FREE_CHARACTER_LIMIT = 500_000;
export const DEFAULT_PAID_CHARACTER_LIMIT = 1_000_000_000_000;

function checkAccountOptions(options: CreateAccountOptions): void {
  if (options === null || typeof options !== 'object') {
    throw new TypeError(`createAccount: expected an options object, got ${String(options)}`);
  }
  if (options.plan !== 'free' && options.plan !== 'paid') {
    throw new TypeError(`createAccount: expected plan 'free' or 'paid', got ${JSON.stringify(options.plan)}`);
  }
  const limit = options.characterLimit;
  if (limit !== undefined && (!Number.isSafeInteger(limit) || limit < 0)) {
    throw new RangeError(`createAccount: expected characterLimit to be a non-negative integer, got ${limit}`);
  }
}

/** Creates an account with one new key. */
export async function createAccount(
  storage: Storage,
  options: CreateAccountOptions,
): Promise<CreatedAccount> {
  checkAccountOptions(options);
  const account = await storage.createAccount({
    id: randomUUID(),
    plan: options.plan,
    admin: options.admin ?? false,
    detectionBeta: options.detectionBeta ?? false,
    qualityAlpha: options.qualityAlpha ?? false,
    voiceJobsAlpha: options.voiceJobsAlpha ?? false,
    memoryMatches: options.memoryMatches ?? false,
    characterLimit:
      options.characterLimit ??
      (options.plan === 'free' ? DEFAULT_FREE_CHARACTER_LIMIT : DEFAULT_PAID_CHARACTER_LIMIT),
  });
  const key = generateKey(options.plan);
  await storage.addKey(account.id, hashKey(key));
  return { accountId: account.id, key };
}

/** Where the local development key is kept (mode 0600) so the embedded server finds it on the next start. */
export const DEV_KEY_FILE = 'dev-key';
const DEV_ACCOUNT_SETTING: Record<Plan, string> = { paid: 'dev_account_id', free: 'dev_account_id:free' };

export interface DevAccount {
  readonly account: Account;
  readonly key: string;
  /** True when this start created the account (the key is then printed once). */
  readonly created: boolean;
}

/**
 * The local development account: paid, admin, detection beta, quality alpha, voice jobs alpha, memory matches. Created on
 * the first start; its key is `presetKey` (`GLOSSA_API_KEY`) when given, else a new random key kept in
 * `<dataDir>/dev-key` (owner-only). The database only ever holds the key's hash. A preset free-plan key
 * (ending in `:fx`) gets a development account of its own on the free plan (same flags), served at the
 * free base URL, as clients that pick the URL by the key's suffix expect.
 */
export async function ensureDevAccount(
  storage: Storage,
  dataDir: string,
  presetKey: string | undefined,
): Promise<DevAccount> {
  const plan = presetKey === undefined ? 'paid' : planOfKey(presetKey);
  const accountId = await storage.getSetting(DEV_ACCOUNT_SETTING[plan]);
  let existing = accountId === undefined ? undefined : await storage.getAccount(accountId);
  let account =
    existing ??
    (await storage.createAccount({
      id: randomUUID(),
      plan,
      admin: true,
      detectionBeta: true,
      qualityAlpha: true,
      voiceJobsAlpha: true,
      memoryMatches: true,
      characterLimit: DEFAULT_PAID_CHARACTER_LIMIT,
    }));
  if (!existing) {
    // Instances of a fleet starting together on a new database: the first account claimed is the one.
    const claimed = await storage.claimSetting(DEV_ACCOUNT_SETTING[plan], account.id);
    if (claimed !== account.id) {
      existing = await storage.getAccount(claimed);
      if (!existing) throw new Error(`the development account ${claimed} is missing`);
      account = existing;
    }
  }

  const keyFile = join(dataDir, DEV_KEY_FILE);
  const key = presetKey ?? (existing ? await readKeyFile(keyFile) : undefined) ?? generateKey('paid');
  const found = await storage.findKeyByHash(hashKey(key));
  if (found && found.account.id !== account.id) {
    throw new TypeError('GLOSSA_API_KEY belongs to another account than the local development account');
  }
  if (!found) {
    try {
      await storage.addKey(account.id, hashKey(key));
    } catch (error) {
      // Another instance added the same preset key at the same moment.
      if ((await storage.findKeyByHash(hashKey(key)))?.account.id !== account.id) throw error;
    }
  }
  if (presetKey === undefined) await writeKeyFile(keyFile, key);
  return { account, key, created: !existing };
}

async function readKeyFile(file: string): Promise<string | undefined> {
  try {
    const key = (await readFile(file, 'utf8')).trim();
    return key === '' ? undefined : key;
  } catch {
    return undefined;
  }
}

async function writeKeyFile(file: string, key: string): Promise<void> {
  const temp = `${file}.${process.pid}.tmp`;
  await writeFile(temp, `${key}\n`, { mode: 0o600 });
  await rename(temp, file);
}
