// `npm run cli -- platform ...`: register an LMS by hand, list, switch on and off, remove.
import { parseArgs } from 'node:util';
import type { Config } from '../config/config.js';
import { flagProblems, unknownFlagSentence, type FlagWords } from './flags.js';
import { UsageError } from './usage.js';
import type { Database } from '../db/index.js';
import { ASSET_PROCESSOR_PLACEMENT, ASSET_PROCESSOR_SCOPES } from '../lti/asset-processor.js';
import { PROCESSOR_SETTINGS_MESSAGE, REPORT_REVIEW_MESSAGE } from '../lti/messages/index.js';
import { PlatformDirectory } from '../lti/platform-directory.js';
import { PRODUCT_FAMILIES } from '../lti/product-family.js';
import { toolUrls } from '../lti/provider.js';
import {
  listRegistrations,
  manualRegistrationInput,
  removeRegistration,
  saveRegistration,
  setRegistrationActive,
  type Registration,
  type RegistrationInput,
} from '../lti/registrations.js';
import { createLogger } from '../observe/logger.js';

const HELP = `Usage:
  npm run cli -- platform add --name NAME --issuer URL --client-id ID --deployment-id ID
                             --auth-url URL --token-url URL --jwks-url URL [--authorization-server URL]
                             [--product FAMILY]
      Registers an LMS, or updates the registration with the same issuer and client id (adding the deployment);
      a change of its login, token or keys URL is logged. --product: the LMS's product family code as it names
      itself (${PRODUCT_FAMILIES.join(', ')}); the tool follows that LMS's
      gradebook rules. Without it an LMS gets the behaviour safe for every LMS (an update keeps the one stored).
  npm run cli -- platform list
  npm run cli -- platform activate ID | deactivate ID
  npm run cli -- platform remove --issuer URL --client-id ID
`;

function describe(registration: Registration): string {
  return [
    `${registration.name} (${registration.active ? 'active' : 'switched off'})`,
    `  id:             ${registration.id}`,
    `  issuer:         ${registration.issuer}`,
    `  client id:      ${registration.clientId}`,
    `  deployments:    ${registration.deploymentIds.join(', ')}`,
    `  login URL:      ${registration.authUrl}`,
    `  token URL:      ${registration.tokenUrl}`,
    `  keys URL:       ${registration.jwksUrl}`,
    `  product:        ${registration.productFamily ?? 'not known'}`,
    `  registered by:  ${registration.registeredBy}`,
  ].join('\n');
}

function toolUrlsText(config: Pick<Config, 'publicUrl' | 'assetProcessor'>): string {
  const urls = toolUrls(config.publicUrl);
  const processor = [
    'For the Asset Processor (Canvas: Document Processor), also:',
    `  Placement on deep linking:                  ${ASSET_PROCESSOR_PLACEMENT}`,
    `  Messages, at the launch URL:                ${PROCESSOR_SETTINGS_MESSAGE}, ${REPORT_REVIEW_MESSAGE}`,
    `  Scopes:                                     ${ASSET_PROCESSOR_SCOPES.join(' ')}`,
  ];
  return [
    'Enter these in the LMS:',
    `  Tool URL / target link URI / redirect URI:  ${urls.launch}`,
    `  Initiate login URL (OpenID Connect):        ${urls.login}`,
    `  Public keyset URL (JWKS):                   ${urls.keys}`,
    `  Deep linking URL (content selection):       ${urls.launch}`,
    ...(config.assetProcessor ? processor : []),
  ].join('\n');
}

const FLAGS = {
  name: { type: 'string' },
  issuer: { type: 'string' },
  'client-id': { type: 'string' },
  'deployment-id': { type: 'string' },
  'auth-url': { type: 'string' },
  'token-url': { type: 'string' },
  'jwks-url': { type: 'string' },
  'authorization-server': { type: 'string' },
  product: { type: 'string' },
} as const;

/** What each field of a registration takes, said as its flag (Moodle's addresses as the examples). */
const HTTPS = 'a full https address (http for localhost only) such as';
const REGISTRATION_FLAGS: FlagWords<keyof RegistrationInput> = {
  name: { flag: '--name', takes: 'the name administrators see, 1 to 200 characters' },
  issuer: {
    flag: '--issuer',
    takes:
      "the LMS's issuer as its tool settings show it, a full https address (http for localhost only) without query or fragment, such as https://moodle.example.edu",
  },
  clientId: { flag: '--client-id', takes: 'the client id the LMS gave the tool' },
  deploymentId: { flag: '--deployment-id', takes: 'the deployment id the LMS gave the tool' },
  authUrl: { flag: '--auth-url', takes: `${HTTPS} https://moodle.example.edu/mod/lti/auth.php` },
  tokenUrl: { flag: '--token-url', takes: `${HTTPS} https://moodle.example.edu/mod/lti/token.php` },
  jwksUrl: { flag: '--jwks-url', takes: `${HTTPS} https://moodle.example.edu/mod/lti/certs.php` },
  authorizationServer: {
    flag: '--authorization-server',
    takes: `${HTTPS} https://moodle.example.edu/mod/lti/token.php`,
  },
  productFamily: { flag: '--product', takes: `the LMS's product family code, one of ${PRODUCT_FAMILIES.join(', ')}` },
};

function parseFlags(args: string[]) {
  try {
    return parseArgs({ args, options: FLAGS, strict: true });
  } catch (error) {
    throw new UsageError(`${unknownFlagSentence(error as Error, Object.keys(FLAGS))}\n\n${HELP}`);
  }
}

export async function platformCommand(database: Database, config: Config, args: string[]): Promise<void> {
  const [action, ...rest] = args;
  if (action === undefined || action === 'help') {
    process.stdout.write(HELP);
    if (action === undefined) throw new UsageError('Name a platform action.');
    return;
  }
  if (action === 'list') {
    const registrations = await listRegistrations(database.db);
    console.log(registrations.length === 0 ? 'No platform is registered.' : registrations.map(describe).join('\n\n'));
    console.log(`\n${toolUrlsText(config)}`);
    return;
  }
  if (action === 'activate' || action === 'deactivate') {
    const id = rest[0];
    if (!id) throw new UsageError(`Give the id of the registration to ${action} (see: platform list).`);
    if (!(await setRegistrationActive(database.db, id, action === 'activate').catch(() => false))) {
      throw new Error(`No registration has the id ${id}.`);
    }
    console.log(
      action === 'activate'
        ? 'Switched on: the platform can launch the tool.'
        : 'Switched off: launches from the platform are refused.',
    );
    return;
  }
  if (action !== 'add' && action !== 'remove') throw new UsageError(`Unknown platform action "${action}".\n\n${HELP}`);

  const { values } = parseFlags(rest);
  const store = { db: database.db, provider: new PlatformDirectory(database.db, config.encryptionKey) };
  {
    if (action === 'remove') {
      if (!values.issuer || !values['client-id'])
        throw new UsageError('Give --issuer and --client-id of the registration to remove.');
      const removed = await removeRegistration(store, { issuer: values.issuer, clientId: values['client-id'] });
      console.log(removed ? 'Removed.' : 'No registration has that issuer and client id.');
      return;
    }
    const given = {
      name: values.name,
      issuer: values.issuer,
      clientId: values['client-id'],
      deploymentId: values['deployment-id'],
      authUrl: values['auth-url'],
      tokenUrl: values['token-url'],
      jwksUrl: values['jwks-url'],
      ...(values['authorization-server'] ? { authorizationServer: values['authorization-server'] } : {}),
      ...(values.product !== undefined ? { productFamily: values.product } : {}),
    };
    const input = manualRegistrationInput.safeParse(given);
    if (!input.success)
      throw new UsageError(`${flagProblems(input.error.issues, given, REGISTRATION_FLAGS).join('\n')}\n\n${HELP}`);
    // The change of an existing platform's URLs is written to the tool's log (stderr) as the CLI's, with what changed.
    const audit = createLogger({ level: 'info', destination: process.stderr as never });
    const registration = await saveRegistration(store, input.data, 'cli', { audit });
    console.log(`Saved.\n${describe(registration)}\n\n${toolUrlsText(config)}`);
  }
}
