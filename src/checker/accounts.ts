// Service accounts: the logins the tool uses at the checking service. A platform registration may name its own
// (one institution per account, billed and kept apart); the others use the default account from the environment.
// Passwords are stored sealed under the tool's key. An assignment keeps the account its platform had when it was
// created, because its folder lives there.
import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { DatabaseSchema } from '../db/index.js';
import { openSecret, sealSecret } from '../secrets.js';
import { CheckerClient } from './client.js';
import { checkerPaperService, classifyFailure } from './paper-service-adapter.js';
import type { PaperService, ServiceFailure } from './paper-service.js';

export const accountInput = z.object({
  name: z.string().trim().min(1, 'Give the account a name.').max(200),
  baseUrl: z
    .string()
    .trim()
    .url('The service address must be a URL, such as https://api.example.com.')
    .refine((value) => ['https:', 'http:'].includes(new URL(value).protocol), 'The service address must be http or https.')
    .transform((value) => value.replace(/\/+$/, '')),
  username: z.string().trim().min(1, 'Give the username (the account\'s e-mail).').max(320),
  password: z.string().min(1, 'Give the password.').max(1000),
});
export type AccountInput = z.input<typeof accountInput>;

export interface ServiceAccount {
  id: string;
  name: string;
  baseUrl: string;
  username: string;
  /** Platform registrations that use it for their new assignments. */
  platforms: number;
  /** Assignments whose folders live in it. */
  assignments: number;
}

/** Adds an account, or replaces the name and password of the one with the same address and username. */
export async function saveAccount(db: Kysely<DatabaseSchema>, encryptionKey: string, input: AccountInput): Promise<ServiceAccount> {
  const values = accountInput.parse(input);
  const row = await db
    .insertInto('checker_account')
    .values({ name: values.name, base_url: values.baseUrl, username: values.username, password_encrypted: sealSecret(values.password, encryptionKey) })
    .onConflict((oc) =>
      oc.columns(['base_url', 'username']).doUpdateSet((eb) => ({
        name: eb.ref('excluded.name'),
        password_encrypted: eb.ref('excluded.password_encrypted'),
        updated_at: new Date(),
      })),
    )
    .returning('id')
    .executeTakeFirstOrThrow();
  const saved = (await listAccounts(db)).find((account) => account.id === row.id);
  if (!saved) throw new Error('The service account disappeared while it was being saved.');
  return saved;
}

export async function listAccounts(db: Kysely<DatabaseSchema>): Promise<ServiceAccount[]> {
  const rows = await db
    .selectFrom('checker_account')
    .select((eb) => [
      'id',
      'name',
      'base_url',
      'username',
      eb.selectFrom('platform').select(eb.fn.countAll<string>().as('n')).whereRef('platform.checker_account_id', '=', 'checker_account.id').as('platforms'),
      eb.selectFrom('assignment').select(eb.fn.countAll<string>().as('n')).whereRef('assignment.checker_account_id', '=', 'checker_account.id').as('assignments'),
    ])
    .orderBy('created_at')
    .execute();
  return rows.map((row) => ({ id: row.id, name: row.name, baseUrl: row.base_url, username: row.username, platforms: Number(row.platforms ?? 0), assignments: Number(row.assignments ?? 0) }));
}

/** Removes an account no assignment's folder lives in; platforms that named it go back to the default. */
export async function removeAccount(db: Kysely<DatabaseSchema>, id: string): Promise<'removed' | 'missing' | 'in-use'> {
  const account = (await listAccounts(db)).find((candidate) => candidate.id === id);
  if (!account) return 'missing';
  if (account.assignments > 0) return 'in-use';
  try {
    const deleted = await db.deleteFrom('checker_account').where('id', '=', id).executeTakeFirst();
    return Number(deleted.numDeletedRows) > 0 ? 'removed' : 'missing';
  } catch (error) {
    // An assignment's folder was created in the account since the count above (its key refuses the delete).
    if ((error as { code?: unknown }).code === '23503') return 'in-use';
    throw error;
  }
}

/** Names the account a platform's new assignments use (null: the default account). */
export async function assignAccount(db: Kysely<DatabaseSchema>, platformId: string, accountId: string | null): Promise<boolean> {
  const result = await db.updateTable('platform').set({ checker_account_id: accountId, updated_at: new Date() }).where('id', '=', platformId).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export type Connect = (login: { baseUrl: string; username: string; password: string }) => PaperService;
/** How every process connects to the service: its clients wait `timeoutMs` for an answer (CHECKER_TIMEOUT_MS). */
export const connectChecker =
  (timeoutMs: number): Connect =>
  (login) =>
    checkerPaperService(new CheckerClient({ ...login, timeoutMs }));

export class NoServiceAccount extends Error {}

/**
 * The service to use for an assignment or an account. Clients are kept per account (they hold the login token)
 * and replaced when the account changes, in this process or another.
 */
export class PaperServices {
  readonly #db: Kysely<DatabaseSchema>;
  readonly #encryptionKey: string;
  readonly #fallback: PaperService | null;
  readonly #connect: Connect;
  readonly #clients = new Map<string, { updatedAt: number; service: PaperService }>();

  constructor(options: { db: Kysely<DatabaseSchema>; encryptionKey: string; fallback: PaperService | null; connect: Connect }) {
    this.#db = options.db;
    this.#encryptionKey = options.encryptionKey;
    this.#fallback = options.fallback;
    this.#connect = options.connect;
  }

  /** How to treat an error from finding the service or from a call to it. */
  classify(error: unknown): ServiceFailure {
    return error instanceof NoServiceAccount ? { kind: 'fatal', message: error.message } : classifyFailure(error);
  }

  async forAssignment(assignmentId: string): Promise<PaperService> {
    const row = await this.#db.selectFrom('assignment').select('checker_account_id').where('id', '=', assignmentId).executeTakeFirst();
    return this.forAccount(row?.checker_account_id ?? null);
  }

  async forAccount(accountId: string | null): Promise<PaperService> {
    if (accountId === null) return this.#defaultService();
    const login = await this.#login(accountId);
    const cached = this.#clients.get(accountId);
    if (cached && cached.updatedAt === login.updatedAt) return cached.service;
    const service = this.#connect(login);
    this.#clients.set(accountId, { updatedAt: login.updatedAt, service });
    return service;
  }

  /** Logs in afresh with a stored account (or the default one): whether its credentials work now. */
  async checkLogin(accountId: string | null): Promise<void> {
    const service = accountId === null ? this.#defaultService() : this.#connect(await this.#login(accountId));
    await service.checkLogin();
  }

  #defaultService(): PaperService {
    if (!this.#fallback) throw new NoServiceAccount('No default service account is configured: set CHECKER_URL, CHECKER_USERNAME and CHECKER_PASSWORD, or give the platform its own account.');
    return this.#fallback;
  }

  async #login(accountId: string): Promise<{ baseUrl: string; username: string; password: string; updatedAt: number }> {
    const row = await this.#db.selectFrom('checker_account').select(['base_url', 'username', 'password_encrypted', 'updated_at']).where('id', '=', accountId).executeTakeFirst();
    if (!row) throw new NoServiceAccount('The service account this assignment uses has been removed.');
    return { baseUrl: row.base_url, username: row.username, password: openSecret(row.password_encrypted, this.#encryptionKey), updatedAt: row.updated_at.getTime() };
  }
}
