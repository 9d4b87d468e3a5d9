// `npm run cli -- account ...`: the checking-service accounts platforms may use instead of the default one.
import { failureOf } from '../checker/index.js';
import { text } from 'node:stream/consumers';
import { parseArgs } from 'node:util';
import { connectChecker, ServiceConnections } from '../accounts/connections.js';
import {
  accountInput,
  assignAccount,
  listAccounts,
  removeAccount,
  saveAccount,
  type AccountInput,
  type ServiceAccount,
} from '../accounts/store.js';
import { flagProblems, unknownFlagSentence, type FlagWords } from './flags.js';
import { UsageError } from './usage.js';
import type { Config } from '../config/config.js';
import type { Database } from '../db/index.js';

const HELP = `Usage:
  npm run cli -- account add --name NAME --url URL --username EMAIL
      Adds a service account (or changes the name and password of the one with that URL and username).
      The password is read from standard input, or from ACCOUNT_PASSWORD when set; never from the command line.
  npm run cli -- account list
  npm run cli -- account test ID                      logs in with the account and says whether it works
  npm run cli -- account use ID|default --platform PLATFORM_ID
      The account the platform's new assignments use (existing assignments keep the account of their folder).
  npm run cli -- account remove ID                    only when no assignment's folder lives in it
`;

const ACCOUNT_FLAGS: FlagWords<keyof AccountInput> = {
  name: { flag: '--name', takes: 'the name administrators see, 1 to 200 characters' },
  baseUrl: { flag: '--url', takes: "the service's full http or https address, such as https://api.example.com" },
  username: { flag: '--username', takes: "the account's user name (its e-mail address)" },
  password: { flag: 'The password', takes: 'read from standard input or ACCOUNT_PASSWORD, 1 to 1000 characters' },
};

function describe(account: ServiceAccount): string {
  return [
    account.name,
    `  id:           ${account.id}`,
    `  service:      ${account.baseUrl}`,
    `  username:     ${account.username}`,
    `  used by:      ${account.platforms} platform(s), ${account.assignments} assignment(s)`,
  ].join('\n');
}

async function readPassword(): Promise<string> {
  if (process.env.ACCOUNT_PASSWORD) return process.env.ACCOUNT_PASSWORD;
  if (process.stdin.isTTY) process.stderr.write('Password: ');
  return (await text(process.stdin)).replace(/\r?\n$/, '');
}

export async function accountCommand(database: Database, config: Config, args: string[]): Promise<void> {
  const [action, ...rest] = args;
  let values, positionals;
  try {
    ({ values, positionals } = parseArgs({
      args: rest,
      allowPositionals: true,
      options: {
        name: { type: 'string' },
        url: { type: 'string' },
        username: { type: 'string' },
        platform: { type: 'string' },
      },
      strict: true,
    }));
  } catch (error) {
    throw new UsageError(`${unknownFlagSentence(error as Error, ['name', 'url', 'username', 'platform'])}\n\n${HELP}`);
  }
  const id = positionals[0];
  switch (action) {
    case 'list': {
      const accounts = await listAccounts(database.db);
      console.log(
        accounts.length === 0
          ? 'No service account is stored; every platform uses the default account (CHECKER_URL).'
          : accounts.map(describe).join('\n\n'),
      );
      return;
    }
    case 'add': {
      const given = { name: values.name, baseUrl: values.url, username: values.username };
      const input = accountInput.safeParse({ ...given, password: await readPassword() });
      if (!input.success)
        throw new UsageError(`${flagProblems(input.error.issues, given, ACCOUNT_FLAGS).join('\n')}\n\n${HELP}`);
      console.log(`Saved.\n${describe(await saveAccount(database.db, config.encryptionKey, input.data))}`);
      return;
    }
    case 'test': {
      if (!id) throw new UsageError(`Give the id of the account to test (see: account list).\n\n${HELP}`);
      if (!(await listAccounts(database.db)).some((account) => account.id === id))
        throw new Error(`No service account has the id ${id}.`);
      const services = new ServiceConnections({
        db: database.db,
        encryptionKey: config.encryptionKey,
        fallback: null,
        connect: connectChecker(config.checkerTimeoutMs),
      });
      try {
        await services.checkLogin(id);
      } catch (error) {
        throw new Error(`The login failed: ${failureOf(error).message}`, { cause: error });
      }
      console.log('The login works.');
      return;
    }
    case 'use': {
      if (!id || !values.platform)
        throw new UsageError(`Give the account id (or "default") and --platform (see: platform list).\n\n${HELP}`);
      const accountId = id === 'default' ? null : id;
      if (accountId && !(await listAccounts(database.db)).some((account) => account.id === accountId))
        throw new Error(`No service account has the id ${accountId}.`);
      if (!(await assignAccount(database.db, values.platform, accountId).catch(() => false)))
        throw new Error(`No registration has the id ${values.platform}.`);
      console.log(
        accountId
          ? "The platform's new assignments use that account."
          : "The platform's new assignments use the default account.",
      );
      return;
    }
    case 'remove': {
      if (!id) throw new UsageError(`Give the id of the account to remove (see: account list).\n\n${HELP}`);
      const outcome = await removeAccount(database.db, id).catch(() => 'missing' as const);
      if (outcome === 'missing') throw new Error(`No service account has the id ${id}.`);
      if (outcome === 'in-use')
        throw new Error('Assignments keep their folders in this account, so it stays. Remove those assignments first.');
      console.log('Removed. Platforms that used it now use the default account.');
      return;
    }
    default:
      if (action === 'help') {
        process.stdout.write(HELP);
        return;
      }
      throw new UsageError(`${action ? `Unknown account action "${action}".\n\n` : ''}${HELP}`);
  }
}
