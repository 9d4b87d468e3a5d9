// The connection to the checking service for an assignment or an account: a client per stored account (it holds
// the login token), the default account from the environment for the rest.
import type { Kysely } from 'kysely';
import {
  CheckerClient,
  checkerPaperService,
  ServiceError,
  type CheckerCallObserver,
  type PaperService,
} from '../checker/index.js';
import type { DatabaseSchema } from '../db/index.js';
import { openSecret } from '../config/secrets.js';

export type Connect = (login: { baseUrl: string; username: string; password: string }) => PaperService;
/**
 * How every process connects to the service: its clients wait `timeoutMs` for an answer (CHECKER_TIMEOUT_MS), and
 * `observe` (the tool's metrics) hears each of their calls.
 */
export const connectChecker =
  (timeoutMs: number, observe?: CheckerCallObserver): Connect =>
  (login) =>
    checkerPaperService(new CheckerClient({ ...login, timeoutMs, ...(observe ? { observe } : {}) }));

/** No account to reach the service with: a configuration problem an administrator fixes. */
export class NoServiceAccount extends ServiceError {
  readonly failure = 'fatal';
}

/**
 * The service to use for an assignment or an account. Clients are kept per account (they hold the login token)
 * and replaced when the account changes, in this process or another.
 */
export class ServiceConnections {
  readonly #db: Kysely<DatabaseSchema>;
  readonly #encryptionKey: string;
  readonly #fallback: PaperService | null;
  readonly #connect: Connect;
  readonly #clients = new Map<string, { updatedAt: number; service: PaperService }>();

  constructor(options: {
    db: Kysely<DatabaseSchema>;
    encryptionKey: string;
    fallback: PaperService | null;
    connect: Connect;
  }) {
    this.#db = options.db;
    this.#encryptionKey = options.encryptionKey;
    this.#fallback = options.fallback;
    this.#connect = options.connect;
  }

  async forAssignment(assignmentId: string): Promise<PaperService> {
    const row = await this.#db
      .selectFrom('assignment')
      .select('checker_account_id')
      .where('id', '=', assignmentId)
      .executeTakeFirst();
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
    if (!this.#fallback)
      throw new NoServiceAccount(
        'No default service account is configured: set CHECKER_URL, CHECKER_USERNAME and CHECKER_PASSWORD, or give the platform its own account.',
      );
    return this.#fallback;
  }

  async #login(accountId: string): Promise<{ baseUrl: string; username: string; password: string; updatedAt: number }> {
    const row = await this.#db
      .selectFrom('checker_account')
      .select(['base_url', 'username', 'password_encrypted', 'updated_at'])
      .where('id', '=', accountId)
      .executeTakeFirst();
    if (!row) throw new NoServiceAccount('The service account this assignment uses has been removed.');
    return {
      baseUrl: row.base_url,
      username: row.username,
      password: openSecret(row.password_encrypted, this.#encryptionKey),
      updatedAt: row.updated_at.getTime(),
    };
  }
}
