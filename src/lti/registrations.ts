// Platform registrations, keyed by (issuer, client_id, deployment_id): the one place they are written. A registration
// is a row of the tool's `platform` table (its addresses, the LMS product, who registered it, the switch that turns it
// off, and the tool's key pair for it) with its deployments; ltijs reads the same rows through its storage plugin
// (storage.ts) and keeps no copy.
import type { Kysely, Selectable } from 'kysely';
import type { PlatformStore } from './platform.js';
import { z } from 'zod';
import type { DatabaseSchema, PlatformTable } from '../db/index.js';
import { registrationCache } from './registration-cache.js';
import { nearMiss } from '../config/near-miss.js';
import { PRODUCT_FAMILIES } from './product-family.js';

/** The address when it is https, or plain http on this machine's own names; null otherwise or when it does not parse. */
function secureAddress(value: string): URL | null {
  if (!URL.canParse(value)) return null;
  const url = new URL(value);
  const local = url.protocol === 'http:' && ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
  return url.protocol === 'https:' || local ? url : null;
}

const httpsOrLocalUrl = z
  .string()
  .url()
  // zod runs this even when .url() refused the value: an address that does not parse is refused here too.
  .refine((value) => secureAddress(value) !== null, 'must be an https URL (plain http is accepted for localhost only)');

/**
 * The LMS product, as its product family code names it ("moodle", "canvas", "desire2learn", "BlackboardLearn",
 * "sakai", "schoology"): what dynamic registration's platform configuration announces
 * (https://www.imsglobal.org/spec/lti-dr/v1p0#platform-configuration), or what an administrator says. Kept as sent;
 * product-family.ts reads it without regard to case. An empty value means not known.
 */
export const productFamily = z
  .string()
  .trim()
  .max(100)
  .transform((value) => value || undefined);

/**
 * An issuer an LMS can sign launches with: an https URL without query, fragment or user name (LTI 1.3 core 5.1.2,
 * https://www.imsglobal.org/spec/lti/v1p3/#issuer-claim), plain http for this machine only. A bare host name
 * ("moodle.example.edu") is no issuer: no launch would ever match it.
 */
const issuerUrl = z
  .string()
  .trim()
  .refine((value) => {
    const url = secureAddress(value);
    return url !== null && url.search === '' && url.hash === '' && url.username === '' && url.password === '';
  }, 'must be an https URL without query or fragment (plain http is accepted for localhost only)');

/**
 * A product family an administrator names: one of PRODUCT_FAMILIES, spelled as the LMS spells it; a near miss
 * ("moodel") is refused with the one it was probably meant to be (the issue's `params.meant`), which the CLI says.
 */
const knownProductFamily = productFamily.transform((value, context) => {
  if (value === undefined) return undefined;
  const known = PRODUCT_FAMILIES.find((code) => code.toLowerCase() === value.toLowerCase());
  if (known) return known;
  const meant = nearMiss(value.toLowerCase(), PRODUCT_FAMILIES);
  context.issues.push({
    code: 'custom',
    input: value,
    message: `must be one of ${PRODUCT_FAMILIES.join(', ')}`,
    params: meant ? { meant } : {},
  });
  return z.NEVER;
});

export const registrationInput = z.object({
  name: z.string().trim().min(1).max(200),
  issuer: z.string().trim().min(1).max(2048),
  clientId: z.string().trim().min(1).max(512),
  deploymentId: z.string().trim().min(1).max(512),
  authUrl: httpsOrLocalUrl,
  tokenUrl: httpsOrLocalUrl,
  jwksUrl: httpsOrLocalUrl,
  authorizationServer: httpsOrLocalUrl.optional(),
  productFamily: productFamily.optional(),
});
export type RegistrationInput = z.infer<typeof registrationInput>;

/**
 * What an administrator registers by hand (the CLI, the admin page): the same, with the issuer held to an address a
 * launch can carry and the product to a family the tool knows. Dynamic registration keeps what the LMS announced
 * (its own issuer, checked against its configuration's address; a product the tool does not know, kept as sent).
 */
export const manualRegistrationInput = registrationInput.extend({
  issuer: issuerUrl.pipe(registrationInput.shape.issuer),
  productFamily: knownProductFamily.optional(),
});

/**
 * What dynamic registration stores: the same, but the deployment may be unnamed. The specification lets the platform
 * leave it out of its answer (https://www.imsglobal.org/spec/lti-dr/v1p0#tool-configuration-from-the-platform), and
 * Canvas always does (app/controllers/lti/ims/dynamic_registration_controller.rb, render_registration: the tool's
 * own configuration with a client_id and a registration_config_url, no deployment_id); such a registration takes the
 * deployment of its first verified launch (findDeployment).
 */
export const dynamicRegistrationInput = registrationInput.extend({
  deploymentId: registrationInput.shape.deploymentId.optional(),
});
export type DynamicRegistrationInput = z.infer<typeof dynamicRegistrationInput>;

export interface Registration {
  id: string;
  name: string;
  issuer: string;
  clientId: string;
  deploymentIds: string[];
  authUrl: string;
  tokenUrl: string;
  jwksUrl: string;
  authorizationServer: string | null;
  /** The LMS product as the platform names it; null: not known. */
  productFamily: string | null;
  registeredBy: string;
  active: boolean;
}

export type RegisteredBy = 'cli' | 'dynamic-registration' | 'admin' | 'dev-platform';

export interface RegistrationStore {
  db: Kysely<DatabaseSchema>;
  /** The platform store, which makes the tool's key pair for a new platform (platform-directory.ts). */
  provider: PlatformStore;
}

/** Where a change of a platform's URLs is written down, with who made it. */
export interface RegistrationAuditLog {
  info(fields: Record<string, unknown>, message: string): void;
}

function platformRow(
  values: DynamicRegistrationInput,
  registeredBy: RegisteredBy,
  active: boolean,
  keyPair: { keyId: string; privateKey: string } | null,
) {
  return {
    name: values.name,
    issuer: values.issuer,
    client_id: values.clientId,
    auth_url: values.authUrl,
    token_url: values.tokenUrl,
    jwks_url: values.jwksUrl,
    authorization_server: values.authorizationServer ?? null,
    product_family: values.productFamily ?? null,
    registered_by: registeredBy,
    active,
    key_id: keyPair?.keyId ?? null,
    private_key: keyPair?.privateKey ?? null,
  };
}

/**
 * An administrator's explicit add or update (CLI, admin page, the dev platform at start): adds a registration or
 * updates the one with the same issuer and client id, adding the deployment to it. Running it twice with the same
 * values changes nothing. A change of the keys, login or token URL is logged with who made it. An update that names
 * no product family keeps the one stored. Dynamic
 * registration never comes here: it may only create (`createRegistration`).
 */
export async function saveRegistration(
  store: RegistrationStore,
  input: RegistrationInput,
  registeredBy: Exclude<RegisteredBy, 'dynamic-registration'>,
  options: { active?: boolean; audit?: RegistrationAuditLog } = {},
): Promise<Registration> {
  const values = registrationInput.parse(input);
  const before = await store.db
    .selectFrom('platform')
    .select(['id', 'auth_url', 'token_url', 'jwks_url', 'authorization_server', 'key_id'])
    .where('issuer', '=', values.issuer)
    .where('client_id', '=', values.clientId)
    .executeTakeFirst();
  // A platform keeps its key pair (the LMS holds the public key or fetches it by its id); one without gets one.
  const keyPair = before?.key_id ? null : await store.provider.newKeyPair();
  const row = await store.db.transaction().execute(async (trx) => {
    const platform = await trx
      .insertInto('platform')
      // A new registration takes the given state; an existing one keeps the state an administrator chose.
      .values(platformRow(values, registeredBy, options.active ?? true, keyPair))
      .onConflict((oc) =>
        oc.columns(['issuer', 'client_id']).doUpdateSet((eb) => ({
          name: eb.ref('excluded.name'),
          auth_url: eb.ref('excluded.auth_url'),
          token_url: eb.ref('excluded.token_url'),
          jwks_url: eb.ref('excluded.jwks_url'),
          authorization_server: eb.ref('excluded.authorization_server'),
          product_family: eb.fn.coalesce('excluded.product_family', 'platform.product_family'),
          key_id: eb.fn.coalesce('platform.key_id', 'excluded.key_id'),
          private_key: eb.fn.coalesce('platform.private_key', 'excluded.private_key'),
          updated_at: new Date(),
        })),
      )
      .returning('id')
      .executeTakeFirstOrThrow();
    await trx
      .insertInto('platform_deployment')
      .values({ platform_id: platform.id, deployment_id: values.deploymentId })
      .onConflict((oc) => oc.doNothing())
      .execute();
    return platform;
  });
  if (before) {
    const changed = (
      [
        ['login URL', before.auth_url, values.authUrl],
        ['token URL', before.token_url, values.tokenUrl],
        ['keys URL', before.jwks_url, values.jwksUrl],
        ['authorization server', before.authorization_server, values.authorizationServer ?? null],
      ] as const
    ).filter(([, was, now]) => was !== now);
    if (changed.length > 0) {
      options.audit?.info(
        {
          platformId: row.id,
          issuer: values.issuer,
          clientId: values.clientId,
          by: registeredBy,
          changes: changed.map(([what, was, now]) => ({ what, was, now })),
        },
        'Platform URLs changed by an administrator',
      );
    }
  }
  const saved = await getRegistration(store.db, row.id);
  if (!saved) throw new Error('The registration disappeared while it was being saved.');
  return saved;
}

/**
 * Dynamic registration's only write: a new platform, or nothing. When the issuer and client id are registered
 * already, nothing of the existing one changes and 'exists' comes back.
 * Client ids are not secret (every login initiation carries one), so a registration that could update would let
 * anyone who answers with a known client id take that LMS over. Without a deployment, the platform's first verified
 * launch names it (findDeployment).
 */
export async function createRegistration(
  store: RegistrationStore,
  input: DynamicRegistrationInput,
  registeredBy: RegisteredBy,
  options: { active: boolean },
): Promise<Registration | 'exists'> {
  const values = dynamicRegistrationInput.parse(input);
  const known = await store.db
    .selectFrom('platform')
    .select('id')
    .where('issuer', '=', values.issuer)
    .where('client_id', '=', values.clientId)
    .executeTakeFirst();
  // Asked first only to spare making a key pair for nothing; the insert below decides.
  if (known) return 'exists';
  const keyPair = await store.provider.newKeyPair();
  const row = await store.db.transaction().execute(async (trx) => {
    // The unique (issuer, client_id) decides between two registrations racing for the same pair.
    const platform = await trx
      .insertInto('platform')
      .values(platformRow(values, registeredBy, options.active, keyPair))
      .onConflict((oc) => oc.columns(['issuer', 'client_id']).doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!platform) return null;
    if (values.deploymentId)
      await trx
        .insertInto('platform_deployment')
        .values({ platform_id: platform.id, deployment_id: values.deploymentId })
        .execute();
    return platform;
  });
  if (!row) return 'exists';
  const saved = await getRegistration(store.db, row.id);
  if (!saved) throw new Error('The registration disappeared while it was being saved.');
  return saved;
}

/** Dynamic registrations still waiting for an administrator to switch them on. */
export async function countPendingRegistrations(db: Kysely<DatabaseSchema>): Promise<number> {
  const row = await db
    .selectFrom('platform')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where('registered_by', '=', 'dynamic-registration')
    .where('active', '=', false)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** A registration's columns, besides the tool's key pair (read by platform-directory.ts alone). */
export const platformColumns = [
  'id',
  'name',
  'issuer',
  'client_id',
  'auth_url',
  'token_url',
  'jwks_url',
  'authorization_server',
  'product_family',
  'registered_by',
  'active',
] as const;
type PlatformRow = Pick<Selectable<PlatformTable>, (typeof platformColumns)[number]>;

function toRegistration(row: PlatformRow, deploymentIds: string[]): Registration {
  return {
    id: row.id,
    name: row.name,
    issuer: row.issuer,
    clientId: row.client_id,
    deploymentIds,
    authUrl: row.auth_url,
    tokenUrl: row.token_url,
    jwksUrl: row.jwks_url,
    authorizationServer: row.authorization_server,
    productFamily: row.product_family,
    registeredBy: row.registered_by,
    active: row.active,
  };
}

async function deploymentsOf(db: Kysely<DatabaseSchema>, platformIds: string[]): Promise<Map<string, string[]>> {
  const byPlatform = new Map<string, string[]>();
  if (platformIds.length === 0) return byPlatform;
  const rows = await db
    .selectFrom('platform_deployment')
    .select(['platform_id', 'deployment_id'])
    .where('platform_id', 'in', platformIds)
    .orderBy('created_at')
    .execute();
  for (const row of rows)
    byPlatform.set(row.platform_id, [...(byPlatform.get(row.platform_id) ?? []), row.deployment_id]);
  return byPlatform;
}

export async function getRegistration(db: Kysely<DatabaseSchema>, id: string): Promise<Registration | null> {
  const row = await db.selectFrom('platform').select(platformColumns).where('id', '=', id).executeTakeFirst();
  if (!row) return null;
  return toRegistration(row, (await deploymentsOf(db, [row.id])).get(row.id) ?? []);
}

export async function listRegistrations(db: Kysely<DatabaseSchema>): Promise<Registration[]> {
  const rows = await db.selectFrom('platform').select(platformColumns).orderBy('created_at').execute();
  const deployments = await deploymentsOf(
    db,
    rows.map((row) => row.id),
  );
  return rows.map((row) => toRegistration(row, deployments.get(row.id) ?? []));
}

/**
 * The registration a token claims to come from: its platform and switch, and whether the deployment is one of its own
 * (`known`) or the first one of a platform that named none at registration (dynamic registration, Canvas: see
 * dynamicRegistrationInput). Only a verified launch may take such a first deployment (token-key.ts, launch.ts); null
 * when the issuer, the client or the deployment is unknown.
 */
export async function findDeployment(
  db: Kysely<DatabaseSchema>,
  claim: { issuer: string; clientId: string; deploymentId: string },
): Promise<FoundDeployment | null> {
  // Read on every launch and changed seldom: kept in memory while the registrations stay as they are.
  const key = `deployment:${JSON.stringify([claim.issuer, claim.clientId, claim.deploymentId])}`;
  return registrationCache(db).get(
    key,
    () => readDeployment(db, claim),
    (found) => found !== null,
  );
}

export interface FoundDeployment {
  platformId: string;
  active: boolean;
  /** False: the platform has no deployment yet, and this one would be its first. */
  known: boolean;
}

async function readDeployment(
  db: Kysely<DatabaseSchema>,
  claim: { issuer: string; clientId: string; deploymentId: string },
): Promise<FoundDeployment | null> {
  const row = await db
    .selectFrom('platform')
    .leftJoin('platform_deployment', (join) =>
      join
        .onRef('platform_deployment.platform_id', '=', 'platform.id')
        .on('platform_deployment.deployment_id', '=', claim.deploymentId),
    )
    .select(['platform.id', 'platform.active', 'platform_deployment.deployment_id'])
    .where('platform.issuer', '=', claim.issuer)
    .where('platform.client_id', '=', claim.clientId)
    .where((eb) =>
      eb.or([
        eb('platform_deployment.deployment_id', 'is not', null),
        eb.not(
          eb.exists(
            eb
              .selectFrom('platform_deployment as other')
              .select('other.platform_id')
              .whereRef('other.platform_id', '=', 'platform.id'),
          ),
        ),
      ]),
    )
    .executeTakeFirst();
  return row ? { platformId: row.id, active: row.active, known: row.deployment_id !== null } : null;
}

/** Switches a registration on or off; launches from a switched-off platform are refused. */
export async function setRegistrationActive(db: Kysely<DatabaseSchema>, id: string, active: boolean): Promise<boolean> {
  const result = await db
    .updateTable('platform')
    .set({ active, updated_at: new Date() })
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Removes a registration with its deployments and the tool's key pair for it. Returns false when none matched. */
export async function removeRegistration(
  store: RegistrationStore,
  match: { issuer: string; clientId: string },
): Promise<boolean> {
  const deleted = await store.db
    .deleteFrom('platform')
    .where('issuer', '=', match.issuer)
    .where('client_id', '=', match.clientId)
    .returning('id')
    .executeTakeFirst();
  return deleted !== undefined;
}
