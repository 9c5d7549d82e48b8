/**
 * Style rule lists in the resource database. A list is one row; its configured rules and its custom
 * instructions (at most 200) are JSON columns. Every change increments `version`.
 */
import { randomUUID } from 'node:crypto';
import type { ConfiguredRules, CustomInstruction, CustomInstructionInput } from '@glossa/protocol';
import { threadWritesSettled } from '../glossaries/db-thread.js';
import type { ResourceDatabase } from '../storage/resource-db.js';

export interface StyleListRecord {
  readonly id: string;
  readonly name: string;
  /** Root language, lower case. */
  readonly language: string;
  readonly version: number;
  readonly configuredRules: ConfiguredRules;
  readonly customInstructions: readonly CustomInstruction[];
  readonly createdAt: string;
  readonly updatedAt: string;
}

export interface NewStyleList {
  readonly name: string;
  readonly language: string;
  readonly configuredRules: ConfiguredRules;
  readonly customInstructions: readonly CustomInstructionInput[];
}

/** A change to one list: returns the new state, or `undefined` to leave the list unchanged. */
export type StyleListChange = (
  list: StyleListRecord,
) => Partial<Pick<StyleListRecord, 'name' | 'configuredRules' | 'customInstructions'>> | undefined;

export interface StyleListStore {
  create(accountId: string, list: NewStyleList): Promise<StyleListRecord>;
  /** One page, oldest first. */
  list(accountId: string, offset: number, limit: number): Promise<StyleListRecord[]>;
  get(accountId: string, id: string): Promise<StyleListRecord | undefined>;
  /** Applies `change` atomically and bumps the version; undefined when the list does not exist. */
  update(accountId: string, id: string, change: StyleListChange): Promise<StyleListRecord | undefined>;
  delete(accountId: string, id: string): Promise<boolean>;
}

/** A style list as both databases store it (rules and instructions as JSON text). */
export interface StyleListRow {
  id: string;
  name: string;
  language: string;
  version: number;
  configured_rules: string;
  custom_instructions: string;
  created_at: string;
  updated_at: string;
}

export const styleListOf = (row: StyleListRow): StyleListRecord => ({
  id: row.id,
  name: row.name,
  language: row.language,
  version: row.version,
  configuredRules: JSON.parse(row.configured_rules) as ConfiguredRules,
  customInstructions: JSON.parse(row.custom_instructions) as CustomInstruction[],
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

export function withId(input: CustomInstructionInput, id: string = randomUUID()): CustomInstruction {
  const instruction: CustomInstruction = { id, label: input.label, prompt: input.prompt };
  if (input.source_language !== undefined) instruction.source_language = input.source_language;
  return instruction;
}

export function createStyleListStore(db: ResourceDatabase): StyleListStore {
  const sql = {
    insert: db.prepare(
      `INSERT INTO style_lists (id, account_id, name, language, version, configured_rules, custom_instructions, created_at, updated_at)
       VALUES (@id, @account_id, @name, @language, 1, @configured_rules, @custom_instructions, @now, @now)`,
    ),
    page: db.prepare(
      'SELECT * FROM style_lists WHERE account_id = ? ORDER BY created_at, id LIMIT ? OFFSET ?',
    ),
    get: db.prepare('SELECT * FROM style_lists WHERE account_id = ? AND id = ?'),
    update: db.prepare(
      `UPDATE style_lists SET name = ?, configured_rules = ?, custom_instructions = ?, version = version + 1,
       updated_at = ? WHERE account_id = ? AND id = ?`,
    ),
    delete: db.prepare('DELETE FROM style_lists WHERE account_id = ? AND id = ?'),
  };
  const get = (accountId: string, id: string) => {
    const row = sql.get.get(accountId, id) as StyleListRow | undefined;
    return row && styleListOf(row);
  };
  const update = db.transaction((accountId: string, id: string, change: StyleListChange) => {
    const current = get(accountId, id);
    if (!current) return undefined;
    const next = change(current);
    if (!next) return current;
    sql.update.run(
      next.name ?? current.name,
      JSON.stringify(next.configuredRules ?? current.configuredRules),
      JSON.stringify(next.customInstructions ?? current.customInstructions),
      new Date().toISOString(),
      accountId,
      id,
    );
    return get(accountId, id);
  });
  // A write here, on the event loop's connection, first awaits the glossary thread's writes in flight on
  // the same file, instead of waiting for SQLite's write lock synchronously (see glossaries/db-thread.ts).
  const file = db.memory ? undefined : db.name;
  const afterThreadWrites = () => (file === undefined ? undefined : threadWritesSettled(file));

  return {
    async create(accountId, list) {
      await afterThreadWrites();
      const id = randomUUID();
      sql.insert.run({
        id,
        account_id: accountId,
        name: list.name,
        language: list.language,
        configured_rules: JSON.stringify(list.configuredRules),
        custom_instructions: JSON.stringify(list.customInstructions.map((input) => withId(input))),
        now: new Date().toISOString(),
      });
      return get(accountId, id)!;
    },
    async list(accountId, offset, limit) {
      return (sql.page.all(accountId, limit, offset) as StyleListRow[]).map(styleListOf);
    },
    async get(accountId, id) {
      return get(accountId, id);
    },
    async update(accountId, id, change) {
      await afterThreadWrites();
      return update.immediate(accountId, id, change);
    },
    async delete(accountId, id) {
      await afterThreadWrites();
      return sql.delete.run(accountId, id).changes > 0;
    },
  };
}
