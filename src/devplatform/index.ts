// An LTI 1.3 platform emulator: what Moodle or Canvas does on the other side of the tool. OIDC login with an
// auto-posting form, signed id_tokens for resource links and deep linking, the client-credentials token endpoint,
// AGS line items, scores and results under Moodle's, Canvas's or the specification's rules, NRPS memberships, and
// the deep-linking return. It keeps everything in memory; the tests, the benchmarks and the local demo drive it.
import { randomBytes, randomUUID } from 'node:crypto';
import express, { Router, type Request, type Response } from 'express';
import { SignJWT, createRemoteJWKSet, exportJWK, generateKeyPair, jwtVerify, type JWK } from 'jose';
import { judgeScore } from './ags-rules.js';
import { AUTO_POST_SCRIPT, PLATFORM_STORAGE_SCRIPT, REGISTRATION_PANEL_SCRIPT, renderAutoPost, renderFrame, renderHome, renderRegistrationPanel, escapeHtml } from './page.js';
import {
  DEFAULT_COURSE,
  DEFAULT_USERS,
  type AccessToken,
  type Course,
  type DevUser,
  type LineItem,
  type PlatformRules,
  type ResourceLink,
  type Score,
  type ScoreLogEntry,
} from './state.js';

export type { DevUser, PlatformRules, Score } from './state.js';
export { ROLES } from './state.js';

export interface DevPlatformOptions {
  /** Where the router is reachable, e.g. http://127.0.0.1:3000/dev; also the issuer. */
  baseUrl: string;
  clientId?: string;
  deploymentId?: string;
  /** registerUrl: the tool's LTI Dynamic Registration address, which the page at /register-tool opens in its panel. */
  tool: { loginUrl: string; launchUrl: string; jwksUrl: string; registerUrl?: string };
  rules?: PlatformRules;
  course?: Course;
  users?: DevUser[];
}

export interface GradebookRow extends Score {
  label: string;
}

export interface DevPlatform {
  router: Router;
  registration(): { name: string; issuer: string; clientId: string; deploymentId: string; authUrl: string; tokenUrl: string; jwksUrl: string };
  users(): DevUser[];
  course(): Course;
  addUser(user: DevUser): void;
  addResourceLink(link: { id: string; title: string; custom?: Record<string, string>; lineItem?: Omit<LineItem, 'id' | 'resourceLinkId'> }): ResourceLink;
  resourceLinks(): ResourceLink[];
  lineItems(): LineItem[];
  /** storageTarget: the login offers LTI platform storage (lti_storage_target), as Canvas does. */
  loginInitiationUrl(options: { userId: string; resourceLinkId?: string; messageType?: 'LtiResourceLinkRequest' | 'LtiDeepLinkingRequest'; storageTarget?: string }): string;
  gradebook(): GradebookRow[];
  scoreLog(): ScoreLogEntry[];
  attempts(lineItemId: string, userId: string): number;
  setRules(rules: PlatformRules): void;
  /** agsStatus, agsDelayMs: answers of the AGS and NRPS endpoints; tokenDelayMs: how long the token endpoint waits. */
  setFaults(faults: { agsStatus?: number; agsDelayMs?: number; tokenDelayMs?: number }): void;
  /** AGS and NRPS requests being held by the agsDelayMs fault right now. */
  heldRequests(): number;
  deepLinkResults(): Array<{ resourceLinkId: string; contentItems: unknown[] }>;
  /** Every client assertion the token endpoint received and the access token it gave for it (null: refused). */
  tokenExchanges(): Array<{ clientAssertion: string; accessToken: string | null }>;
  /** Signs any payload with the platform's key (tests forge launches with it or with another key). */
  sign(payload: Record<string, unknown>, options?: { expiresInSeconds?: number }): Promise<string>;
  /** The address an LMS administrator opens to register the tool dynamically (tool URL + configuration + token). */
  registrationUrl(toolRegisterUrl: string): string;
  /** What tools sent to the registration endpoint. */
  dynamicRegistrations(): Array<Record<string, unknown>>;
}

const CLAIM = 'https://purl.imsglobal.org/spec/lti/claim';
const AGS_CLAIM = 'https://purl.imsglobal.org/spec/lti-ags/claim/endpoint';
const NRPS_CLAIM = 'https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice';
const DL_SETTINGS = 'https://purl.imsglobal.org/spec/lti-dl/claim/deep_linking_settings';
const SCOPES = {
  lineItem: 'https://purl.imsglobal.org/spec/lti-ags/scope/lineitem',
  lineItemRead: 'https://purl.imsglobal.org/spec/lti-ags/scope/lineitem.readonly',
  result: 'https://purl.imsglobal.org/spec/lti-ags/scope/result.readonly',
  score: 'https://purl.imsglobal.org/spec/lti-ags/scope/score',
  nrps: 'https://purl.imsglobal.org/spec/lti-nrps/scope/contextmembership.readonly',
};

export async function createDevPlatform(options: DevPlatformOptions): Promise<DevPlatform> {
  const issuer = options.baseUrl.replace(/\/+$/, '');
  const clientId = options.clientId ?? 'dev-client';
  const deploymentId = options.deploymentId ?? 'dev-deployment';
  const course = options.course ?? DEFAULT_COURSE;
  const people = new Map((options.users ?? DEFAULT_USERS).map((user) => [user.id, user]));
  let rules: PlatformRules = options.rules ?? 'spec';
  let faults: { agsStatus?: number; agsDelayMs?: number; tokenDelayMs?: number } = {};
  let held = 0;

  const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
  const kid = `dev-${randomBytes(6).toString('hex')}`;
  const publicJwk: JWK = { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' };
  const toolKeys = createRemoteJWKSet(new URL(options.tool.jwksUrl), { cacheMaxAge: 60_000, cooldownDuration: 0 });

  const links = new Map<string, ResourceLink>();
  const items = new Map<string, LineItem>();
  const scores = new Map<string, Score>(); // key: lineItemId + '\n' + userId
  const attemptCounts = new Map<string, number>();
  const log: ScoreLogEntry[] = [];
  const tokens = new Map<string, AccessToken>();
  const exchanges: Array<{ clientAssertion: string; accessToken: string | null }> = [];
  const deepLinks: Array<{ resourceLinkId: string; contentItems: unknown[] }> = [];
  let nextItem = 1;

  const tokenUrl = `${issuer}/token`;
  const lineItemsUrl = `${issuer}/courses/${course.id}/lineitems`;
  /** Moodle's line item URLs carry a query string; its scores URL keeps it (…/lineitem/scores?type_id=1). */
  const lineItemUrl = (id: string) => (rules === 'moodle' ? `${lineItemsUrl}/${id}/lineitem?type_id=1` : `${lineItemsUrl}/${id}`);
  const lineItemJson = (item: LineItem) => ({ ...item, id: lineItemUrl(item.id) });

  function createLineItem(spec: Omit<LineItem, 'id'>): LineItem {
    const item: LineItem = { ...spec, id: String(nextItem++) };
    items.set(item.id, item);
    if (item.resourceLinkId) links.get(item.resourceLinkId)?.lineItemIds.push(item.id);
    return item;
  }

  function addResourceLink(link: { id: string; title: string; custom?: Record<string, string>; lineItem?: Omit<LineItem, 'id' | 'resourceLinkId'> }): ResourceLink {
    const created: ResourceLink = { id: link.id, title: link.title, custom: link.custom ?? {}, lineItemIds: [] };
    links.set(created.id, created);
    if (link.lineItem) createLineItem({ ...link.lineItem, resourceLinkId: created.id });
    return created;
  }

  async function sign(payload: Record<string, unknown>, signOptions: { expiresInSeconds?: number } = {}): Promise<string> {
    return new SignJWT(payload)
      .setProtectedHeader({ alg: 'RS256', kid, typ: 'JWT' })
      .setIssuedAt()
      .setExpirationTime(`${signOptions.expiresInSeconds ?? 300}s`)
      .sign(privateKey);
  }

  /** The id_token of a launch: LTI core 5.3 and 5.4 claims, AGS and NRPS endpoints, deep-linking settings. */
  async function idToken(user: DevUser, nonce: string, hint: { resourceLinkId?: string; messageType: string }): Promise<string> {
    const common: Record<string, unknown> = {
      iss: issuer,
      aud: clientId,
      azp: clientId,
      sub: user.id,
      nonce,
      name: user.name,
      given_name: user.name.split(' ')[0],
      family_name: user.name.split(' ').slice(1).join(' '),
      email: user.email,
      [`${CLAIM}/version`]: '1.3.0',
      [`${CLAIM}/deployment_id`]: deploymentId,
      [`${CLAIM}/roles`]: user.roles,
      [`${CLAIM}/context`]: { id: course.id, label: course.label, title: course.title, type: ['http://purl.imsglobal.org/vocab/lis/v2/course#CourseOffering'] },
      [`${CLAIM}/tool_platform`]: { guid: issuer, name: 'Dev platform', product_family_code: rules === 'spec' ? 'dev' : rules },
      [`${CLAIM}/launch_presentation`]: { document_target: 'iframe', return_url: `${issuer}/` },
      [NRPS_CLAIM]: { context_memberships_url: `${issuer}/courses/${course.id}/memberships`, service_versions: ['2.0'] },
    };
    if (hint.messageType === 'LtiDeepLinkingRequest') {
      return sign({
        ...common,
        [`${CLAIM}/message_type`]: 'LtiDeepLinkingRequest',
        [`${CLAIM}/target_link_uri`]: options.tool.launchUrl,
        [AGS_CLAIM]: { scope: Object.values(SCOPES).slice(0, 4), lineitems: lineItemsUrl },
        [DL_SETTINGS]: {
          deep_link_return_url: `${issuer}/deep-link-return`,
          accept_types: ['ltiResourceLink'],
          accept_presentation_document_targets: ['iframe', 'window'],
          accept_multiple: false,
          auto_create: true,
          data: `dl-${randomUUID()}`,
        },
      });
    }
    const link = links.get(hint.resourceLinkId ?? '');
    if (!link) throw new Error(`No resource link ${hint.resourceLinkId}`);
    const single = link.lineItemIds.length === 1 ? lineItemUrl(link.lineItemIds[0]!) : undefined;
    return sign({
      ...common,
      [`${CLAIM}/message_type`]: 'LtiResourceLinkRequest',
      [`${CLAIM}/target_link_uri`]: options.tool.launchUrl,
      [`${CLAIM}/resource_link`]: { id: link.id, title: link.title },
      [`${CLAIM}/custom`]: link.custom,
      [AGS_CLAIM]: { scope: Object.values(SCOPES).slice(0, 4), lineitems: lineItemsUrl, ...(single ? { lineitem: single } : {}) },
    });
  }

  const router = Router();
  const form = express.urlencoded({ extended: false, limit: '256kb' });

  router.get('/', (_req, res) => {
    res.send(renderHome({ registerPage: options.tool.registerUrl ? `${issuer}/register-tool` : null, course, users: [...people.values()], links: [...links.values()], gradebook: gradebook(), loginUrl: (userId, resourceLinkId, messageType) => loginInitiationUrl({ userId, resourceLinkId, messageType }), frameUrl: (userId, resourceLinkId, messageType) => `${issuer}/frame?${new URLSearchParams({ user: userId, type: messageType, ...(resourceLinkId ? { link: resourceLinkId } : {}) })}` }));
  });

  router.get('/auto-post.js', (_req, res) => {
    res.type('text/javascript').send(AUTO_POST_SCRIPT);
  });

  router.get('/platform-storage.js', (_req, res) => {
    res.type('text/javascript').send(PLATFORM_STORAGE_SCRIPT);
  });

  // A launch as an LMS shows it: the tool in a frame of this page, which answers its platform-storage messages.
  router.get('/frame', (req, res) => {
    const q = req.query as Record<string, string | undefined>;
    if (!q.user || !people.has(q.user)) return void res.status(400).send('<!doctype html><title>Unknown user</title><p>No such user.</p>');
    const messageType = q.type === 'LtiDeepLinkingRequest' ? 'LtiDeepLinkingRequest' : 'LtiResourceLinkRequest';
    const login = loginInitiationUrl({ userId: q.user, messageType, storageTarget: '_parent', ...(q.link ? { resourceLinkId: q.link } : {}) });
    res.send(renderFrame(login, `${issuer}/platform-storage.js`));
  });

  router.get('/jwks', (_req, res) => {
    res.json({ keys: [publicJwk] });
  });

  // OIDC authorization endpoint (LTI core 5.1.1.2 and OpenID Connect core 3.1.2.1).
  router.all('/auth', form, async (req: Request, res: Response) => {
    const p = { ...(req.query as Record<string, string>), ...((req.body as Record<string, string>) ?? {}) };
    const problem =
      p.client_id !== clientId ? 'unknown client_id' :
      p.redirect_uri !== options.tool.launchUrl ? 'redirect_uri is not registered for this tool' :
      p.response_type !== 'id_token' ? 'response_type must be id_token' :
      p.response_mode !== 'form_post' ? 'response_mode must be form_post' :
      !String(p.scope ?? '').split(' ').includes('openid') ? 'scope must include openid' :
      !p.nonce ? 'nonce is missing' :
      !p.login_hint || !people.has(p.login_hint) ? 'unknown login_hint' : null;
    if (problem) return void res.status(400).send(`<!doctype html><title>Launch refused</title><p>The platform refused the login: ${escapeHtml(problem)}.</p>`);
    let hint: { resourceLinkId?: string; messageType: string };
    try {
      hint = JSON.parse(Buffer.from(String(p.lti_message_hint ?? ''), 'base64url').toString('utf8'));
    } catch {
      return void res.status(400).send('<!doctype html><title>Launch refused</title><p>The platform refused the login: bad lti_message_hint.</p>');
    }
    const token = await idToken(people.get(p.login_hint!)!, String(p.nonce), hint);
    res.send(renderAutoPost(options.tool.launchUrl, { id_token: token, ...(p.state ? { state: String(p.state) } : {}) }, `${issuer}/auto-post.js`));
  });

  // OAuth 2 client credentials with a signed JWT assertion (LTI Security Framework 4.1).
  router.post('/token', form, async (req, res) => {
    if (faults.tokenDelayMs) await new Promise((resolve) => setTimeout(resolve, faults.tokenDelayMs));
    const body = req.body as Record<string, string | undefined>;
    if (body.grant_type !== 'client_credentials' || body.client_assertion_type !== 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer' || !body.client_assertion) {
      return void res.status(400).json({ error: 'invalid_request' });
    }
    try {
      const { payload } = await jwtVerify(body.client_assertion, toolKeys, { issuer: clientId, subject: clientId, audience: tokenUrl });
      if (!payload.jti) throw new Error('jti missing');
    } catch {
      exchanges.push({ clientAssertion: body.client_assertion, accessToken: null });
      return void res.status(401).json({ error: 'invalid_client' });
    }
    const requested = String(body.scope ?? '').split(' ').filter(Boolean);
    const granted = requested.filter((scope) => Object.values(SCOPES).includes(scope));
    if (granted.length === 0) return void res.status(400).json({ error: 'invalid_scope' });
    const token = randomBytes(24).toString('base64url');
    tokens.set(token, { token, scopes: granted, expiresAt: Date.now() + 3600_000 });
    exchanges.push({ clientAssertion: body.client_assertion, accessToken: token });
    res.json({ access_token: token, token_type: 'Bearer', expires_in: 3600, scope: granted.join(' ') });
  });

  /** AGS and NRPS calls need a live token with one of the scopes; faults switched on answer first. */
  function guard(...scopes: string[]) {
    return async (req: Request, res: Response, next: () => void) => {
      if (faults.agsDelayMs) {
        held += 1;
        await new Promise((resolve) => setTimeout(resolve, faults.agsDelayMs)).finally(() => (held -= 1));
      }
      if (faults.agsStatus) return void res.status(faults.agsStatus).json({ error: 'switched on by the test' });
      const header = req.headers.authorization ?? '';
      const token = tokens.get(header.startsWith('Bearer ') ? header.slice(7) : '');
      if (!token || token.expiresAt < Date.now()) return void res.status(401).json({ error: 'invalid or expired token' });
      if (!scopes.some((scope) => token.scopes.includes(scope))) return void res.status(403).json({ error: 'scope not granted' });
      next();
    };
  }
  const json = express.json({ type: () => true, limit: '256kb' });
  const base = `/courses/${course.id}/lineitems`;

  router.get(base, guard(SCOPES.lineItem, SCOPES.lineItemRead), (req, res) => {
    const q = req.query as Record<string, string | undefined>;
    let found = [...items.values()].filter(
      (item) => (!q.resource_link_id || item.resourceLinkId === q.resource_link_id) && (!q.resource_id || item.resourceId === q.resource_id) && (!q.tag || item.tag === q.tag),
    );
    const limit = Number(q.limit ?? 0);
    const page = Number(q.page ?? 0);
    if (limit > 0) {
      if (found.length > (page + 1) * limit) res.setHeader('Link', `<${issuer}${base}?limit=${limit}&page=${page + 1}>; rel="next"`);
      found = found.slice(page * limit, (page + 1) * limit);
    }
    res.type('application/vnd.ims.lis.v2.lineitemcontainer+json').send(JSON.stringify(found.map(lineItemJson)));
  });

  router.post(base, guard(SCOPES.lineItem), json, (req, res) => {
    const body = req.body as Partial<LineItem>;
    if (typeof body.label !== 'string' || !body.label.trim() || typeof body.scoreMaximum !== 'number' || body.scoreMaximum <= 0) {
      return void res.status(400).json({ error: 'label and a positive scoreMaximum are required' });
    }
    if (body.resourceLinkId && !links.has(body.resourceLinkId)) return void res.status(404).json({ error: 'The specified resource does not exist' });
    const item = createLineItem({ label: body.label, scoreMaximum: body.scoreMaximum, ...(body.tag ? { tag: body.tag } : {}), ...(body.resourceId ? { resourceId: body.resourceId } : {}), ...(body.resourceLinkId ? { resourceLinkId: body.resourceLinkId } : {}) });
    res.status(201).type('application/vnd.ims.lis.v2.lineitem+json').send(JSON.stringify(lineItemJson(item)));
  });

  /** Moodle's line items live at …/:id/lineitem?type_id=1; the others at …/:id. Anything else is 404. */
  function itemOf(req: Request, res: Response, moodleForm: boolean): LineItem | null {
    const item = items.get(String(req.params.id));
    const rightForm = rules === 'moodle' ? moodleForm && req.query.type_id === '1' : !moodleForm;
    if (!item || !rightForm) {
      res.status(404).json({ error: 'No such line item' });
      return null;
    }
    return item;
  }

  for (const moodleForm of [false, true]) {
    const path = moodleForm ? `${base}/:id/lineitem` : `${base}/:id`;
    router.get(path, guard(SCOPES.lineItem, SCOPES.lineItemRead), (req, res) => {
      const item = itemOf(req, res, moodleForm);
      if (item) res.type('application/vnd.ims.lis.v2.lineitem+json').send(JSON.stringify(lineItemJson(item)));
    });
    router.put(path, guard(SCOPES.lineItem), json, (req, res) => {
      const item = itemOf(req, res, moodleForm);
      if (!item) return;
      const body = req.body as Partial<LineItem>;
      if (typeof body.label === 'string') item.label = body.label;
      if (typeof body.scoreMaximum === 'number' && body.scoreMaximum > 0) item.scoreMaximum = body.scoreMaximum;
      res.type('application/vnd.ims.lis.v2.lineitem+json').send(JSON.stringify(lineItemJson(item)));
    });
    router.delete(path, guard(SCOPES.lineItem), (req, res) => {
      const item = itemOf(req, res, moodleForm);
      if (!item) return;
      items.delete(item.id);
      res.status(204).end();
    });
    router.post(`${path}/scores`, guard(SCOPES.score), json, (req, res) => {
      const item = itemOf(req, res, moodleForm);
      if (!item) return;
      const body = (req.body ?? {}) as Record<string, unknown>;
      const key = `${item.id}\n${String(body.userId)}`;
      const verdict = judgeScore(rules, body, people.get(String(body.userId)), item.id, scores.get(key));
      log.push({ lineItemId: item.id, userId: String(body.userId), status: verdict.status, body });
      if (!verdict.stored) return void res.status(verdict.status).json({ error: verdict.error });
      scores.set(key, verdict.stored);
      if (verdict.newAttempt) attemptCounts.set(key, (attemptCounts.get(key) ?? 0) + 1);
      if (verdict.status === 204) res.status(204).end();
      else res.status(verdict.status).json({ resultUrl: `${issuer}${base}/${item.id}/results/${encodeURIComponent(String(body.userId))}` });
    });
    router.get(`${path}/results`, guard(SCOPES.result), (req, res) => {
      const item = itemOf(req, res, moodleForm);
      if (!item) return;
      const results = [...scores.values()]
        .filter((score) => score.lineItemId === item.id && (!req.query.user_id || score.userId === req.query.user_id))
        .map((score) => ({ userId: score.userId, resultScore: score.scoreGiven, resultMaximum: item.scoreMaximum, comment: score.comment, scoreOf: lineItemUrl(item.id) }));
      res.type('application/vnd.ims.lis.v2.resultcontainer+json').send(JSON.stringify(results));
    });
  }

  // NRPS 2.0 membership container with paging through Link rel="next".
  router.get(`/courses/${course.id}/memberships`, guard(SCOPES.nrps), (req, res) => {
    const all = [...people.values()].map((user) => ({ user_id: user.id, name: user.name, email: user.email, roles: user.roles, status: 'Active' }));
    const limit = Number(req.query.limit ?? 0) || all.length;
    const page = Number(req.query.page ?? 0);
    if (all.length > (page + 1) * limit) res.setHeader('Link', `<${issuer}/courses/${course.id}/memberships?limit=${limit}&page=${page + 1}>; rel="next"`);
    res.type('application/vnd.ims.lti-nrps.v2.membershipcontainer+json').send(
      JSON.stringify({ id: `${issuer}/courses/${course.id}/memberships`, context: { id: course.id, label: course.label, title: course.title }, members: all.slice(page * limit, (page + 1) * limit) }),
    );
  });

  // Deep Linking 2.0 response (section 4.2): the tool's signed JWT with its content items.
  router.post('/deep-link-return', form, async (req, res) => {
    let payload;
    try {
      ({ payload } = await jwtVerify(String((req.body as { JWT?: string }).JWT ?? ''), toolKeys, { issuer: clientId, audience: issuer }));
    } catch {
      return void res.status(400).send('<!doctype html><title>Refused</title><p>The deep-linking response could not be verified.</p>');
    }
    if (payload[`${CLAIM}/message_type`] !== 'LtiDeepLinkingResponse' || payload[`${CLAIM}/deployment_id`] !== deploymentId) {
      return void res.status(400).send('<!doctype html><title>Refused</title><p>The deep-linking response is not for this deployment.</p>');
    }
    const contentItems = (payload['https://purl.imsglobal.org/spec/lti-dl/claim/content_items'] as Array<Record<string, unknown>> | undefined) ?? [];
    for (const item of contentItems) {
      if (item.type !== 'ltiResourceLink') continue;
      const id = `link-${randomBytes(4).toString('hex')}`;
      const lineItem = item.lineItem as Omit<LineItem, 'id' | 'resourceLinkId'> | undefined;
      addResourceLink({ id, title: String(item.title ?? 'Tool link'), custom: (item.custom as Record<string, string>) ?? {}, ...(lineItem ? { lineItem } : {}) });
      deepLinks.push({ resourceLinkId: id, contentItems });
    }
    res.send(`<!doctype html><title>Added</title><p>Added ${contentItems.length} item(s) to ${escapeHtml(course.title)}. <a href="${escapeHtml(issuer)}/">Back to the course</a></p>`);
  });

  // LTI Dynamic Registration 1.0: the platform's configuration, and the endpoint where a tool registers itself.
  const registrationToken = randomBytes(16).toString('hex');
  const dynamicRegistrations: Array<Record<string, unknown>> = [];
  router.get('/.well-known/openid-configuration', (req, res) => {
    if (req.headers.authorization !== `Bearer ${registrationToken}`) return void res.status(401).json({ error: 'registration token required' });
    res.json({
      issuer,
      authorization_endpoint: `${issuer}/auth`,
      token_endpoint: tokenUrl,
      jwks_uri: `${issuer}/jwks`,
      registration_endpoint: `${issuer}/register`,
      scopes_supported: ['openid', ...Object.values(SCOPES)],
      response_types_supported: ['id_token'],
      id_token_signing_alg_values_supported: ['RS256'],
      claims_supported: ['iss', 'sub', 'name', 'given_name', 'family_name', 'email'],
      'https://purl.imsglobal.org/spec/lti-platform-configuration': { product_family_code: rules === 'spec' ? 'dev' : rules, version: '1.0', messages_supported: [{ type: 'LtiResourceLinkRequest' }, { type: 'LtiDeepLinkingRequest' }] },
    });
  });
  router.post('/register', express.json({ limit: '64kb' }), (req, res) => {
    if (req.headers.authorization !== `Bearer ${registrationToken}`) return void res.status(401).json({ error: 'registration token required' });
    const body = req.body as Record<string, unknown>;
    const config = body['https://purl.imsglobal.org/spec/lti-tool-configuration'] as Record<string, unknown> | undefined;
    if (body.initiate_login_uri !== options.tool.loginUrl || !Array.isArray(body.redirect_uris) || !body.redirect_uris.includes(options.tool.launchUrl) || body.jwks_uri !== options.tool.jwksUrl || !config) {
      return void res.status(400).json({ error: 'invalid_client_metadata' });
    }
    dynamicRegistrations.push(body);
    res.json({ ...body, client_id: clientId, 'https://purl.imsglobal.org/spec/lti-tool-configuration': { ...config, deployment_id: deploymentId } });
  });

  // What an LMS administrator sees when registering a tool by URL, as Moodle shows it: the tool's registration page
  // in a panel (an iframe) of the platform's own page, on the platform's origin, which the platform closes when the
  // tool posts org.imsglobal.lti.close (https://www.imsglobal.org/spec/lti-dr/v1p0#step-4-registration-completed-and-activation).
  router.get('/registration-panel.js', (_req, res) => {
    res.type('text/javascript').send(REGISTRATION_PANEL_SCRIPT);
  });
  router.get('/register-tool', (_req, res) => {
    if (!options.tool.registerUrl) return void res.status(404).send('<!doctype html><title>Not set up</title><p>This platform does not know the tool\'s registration address.</p>');
    const panelUrl = registrationUrl(options.tool.registerUrl);
    // The platform's own policy for this page (it replaces any the host app set): its script, and a frame of the tool.
    res.setHeader('Content-Security-Policy', `default-src 'none'; script-src 'self'; frame-src ${new URL(panelUrl).origin}; frame-ancestors 'self'; base-uri 'none'`);
    res.send(renderRegistrationPanel(panelUrl, `${issuer}/registration-panel.js`));
  });

  function registrationUrl(toolRegisterUrl: string): string {
    const url = new URL(toolRegisterUrl);
    url.searchParams.set('openid_configuration', `${issuer}/.well-known/openid-configuration`);
    url.searchParams.set('registration_token', registrationToken);
    return url.toString();
  }

  function loginInitiationUrl(init: { userId: string; resourceLinkId?: string; messageType?: 'LtiResourceLinkRequest' | 'LtiDeepLinkingRequest'; storageTarget?: string }): string {
    const url = new URL(options.tool.loginUrl);
    const hint = { messageType: init.messageType ?? 'LtiResourceLinkRequest', ...(init.resourceLinkId ? { resourceLinkId: init.resourceLinkId } : {}) };
    url.searchParams.set('iss', issuer);
    url.searchParams.set('login_hint', init.userId);
    url.searchParams.set('target_link_uri', options.tool.launchUrl);
    url.searchParams.set('lti_message_hint', Buffer.from(JSON.stringify(hint)).toString('base64url'));
    url.searchParams.set('client_id', clientId);
    url.searchParams.set('lti_deployment_id', deploymentId);
    if (init.storageTarget) url.searchParams.set('lti_storage_target', init.storageTarget);
    return url.toString();
  }

  function gradebook(): GradebookRow[] {
    return [...scores.values()].map((score) => ({ ...score, label: items.get(score.lineItemId)?.label ?? score.lineItemId }));
  }

  return {
    router,
    registration: () => ({ name: `Dev platform (${rules})`, issuer, clientId, deploymentId, authUrl: `${issuer}/auth`, tokenUrl, jwksUrl: `${issuer}/jwks` }),
    users: () => [...people.values()],
    course: () => course,
    addUser: (user) => void people.set(user.id, user),
    addResourceLink,
    resourceLinks: () => [...links.values()],
    lineItems: () => [...items.values()].map(lineItemJson),
    loginInitiationUrl,
    gradebook,
    scoreLog: () => [...log],
    attempts: (lineItemId, userId) => attemptCounts.get(`${lineItemId}\n${userId}`) ?? 0,
    setRules: (next) => void (rules = next),
    setFaults: (next) => void (faults = next),
    heldRequests: () => held,
    deepLinkResults: () => [...deepLinks],
    tokenExchanges: () => [...exchanges],
    sign,
    registrationUrl,
    dynamicRegistrations: () => [...dynamicRegistrations],
  };
}
