// Service accounts: the logins the tool uses at the checking service. A platform registration may name its own
// (one institution per account, billed and kept apart); the others use the default account from the environment.
// Passwords are stored sealed under the tool's key. An assignment keeps the account its platform had when it was
// created, because its folder lives there. services.ts turns an account into a connection to the service.
import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { DatabaseSchema } from '../db/index.js';
import { sealSecret } from '../config/secrets.js';

export const accountInput = z.object({
  name: z.string().trim().min(1, 'Give the account a name.').max(200),
  baseUrl: z
    .string()
    .trim()
    .url('The service address must be a URL, such as https://api.example.com.')
    .refine(
      // zod runs this even when .url() refused the value.
      (value) => URL.canParse(value) && ['https:', 'http:'].includes(new URL(value).protocol),
      'The service address must be http or https.',
    )
    .transform((value) => value.replace(/\/+$/, '')),
  username: z.string().trim().min(1, "Give the username (the account's e-mail).").max(320),
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
export async function saveAccount(
  db: Kysely<DatabaseSchema>,
  encryptionKey: string,
  input: AccountInput,
): Promise<ServiceAccount> {
  const values = accountInput.parse(input);
  const row = await db
    .insertInto('checker_account')
    .values({
      name: values.name,
      base_url: values.baseUrl,
      username: values.username,
      password_encrypted: sealSecret(values.password, encryptionKey),
    })
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
      eb
        .selectFrom('platform')
        .select(eb.fn.countAll<string>().as('n'))
        .whereRef('platform.checker_account_id', '=', 'checker_account.id')
        .as('platforms'),
      eb
        .selectFrom('assignment')
        .select(eb.fn.countAll<string>().as('n'))
        .whereRef('assignment.checker_account_id', '=', 'checker_account.id')
        .as('assignments'),
    ])
    .orderBy('created_at')
    .execute();
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    baseUrl: row.base_url,
    username: row.username,
    platforms: Number(row.platforms ?? 0),
    assignments: Number(row.assignments ?? 0),
  }));
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
export async function assignAccount(
  db: Kysely<DatabaseSchema>,
  platformId: string,
  accountId: string | null,
): Promise<boolean> {
  const result = await db
    .updateTable('platform')
    .set({ checker_account_id: accountId, updated_at: new Date() })
    .where('id', '=', platformId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** The account each platform's new assignments use (null: the default account), by platform id. */
export async function accountOfEachPlatform(db: Kysely<DatabaseSchema>): Promise<Map<string, string | null>> {
  const rows = await db.selectFrom('platform').select(['id', 'checker_account_id']).execute();
  return new Map(rows.map((row) => [row.id, row.checker_account_id]));
}

/** Whether an assignment of a platform other than this one keeps its folder in the account. */
export async function holdsOtherPlatformsFolders(
  db: Kysely<DatabaseSchema>,
  accountId: string,
  platformId: string,
): Promise<boolean> {
  const row = await db
    .selectFrom('assignment')
    .select('id')
    .where('checker_account_id', '=', accountId)
    .where('platform_id', '!=', platformId)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}
