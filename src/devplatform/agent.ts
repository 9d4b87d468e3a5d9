// A browser stand-in for tests and benchmarks: runs a whole LTI launch over HTTP with a cookie jar (the tool's
// login initiation, the platform's authorization endpoint, the form post of the id_token, the redirects) and
// returns the page the tool finally shows.
import { request } from 'undici';
import { decodeHtml } from './html.js';
import type { AssetProcessorLaunch } from './asset-processor-launches.js';
import type { DevPlatform } from './index.js';

export interface AgentResponse {
  status: number;
  url: string;
  body: string;
  headers: Record<string, string | string[] | undefined>;
}

export interface LaunchResult extends AgentResponse {
  /** The id_token the platform issued (to replay it, for example). */
  idToken: string;
  state: string;
  /** The ltik the tool put in its redirect, if any. */
  ltik: string | null;
}

export class CookieJar {
  #cookies = new Map<string, string>();
  store(setCookie: string | string[] | undefined): void {
    for (const line of Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : []) {
      const [pair] = line.split(';');
      const index = pair!.indexOf('=');
      if (index > 0) this.#cookies.set(pair!.slice(0, index).trim(), pair!.slice(index + 1).trim());
    }
  }
  header(): string {
    return [...this.#cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
  clear(): void {
    this.#cookies.clear();
  }
}

/** Where the browser reaches an address: the platform's SSO host's published ones where it serves them (index.ts). */
type Route = (url: string) => string;

async function send(
  url: string,
  init: {
    method?: 'GET' | 'POST';
    form?: Record<string, string>;
    jar: CookieJar;
    headers?: Record<string, string>;
    route?: Route;
  },
): Promise<AgentResponse> {
  const headers: Record<string, string> = { ...init.headers };
  const cookie = init.jar.header();
  if (cookie) headers.cookie = cookie;
  if (init.form) headers['content-type'] = 'application/x-www-form-urlencoded';
  const response = await request(init.route ? init.route(url) : url, {
    method: init.method ?? 'GET',
    headers,
    ...(init.form ? { body: new URLSearchParams(init.form).toString() } : {}),
  });
  init.jar.store(response.headers['set-cookie']);
  return { status: response.statusCode, url, body: await response.body.text(), headers: response.headers };
}

/** Follows redirects (GET), up to ten. */
async function follow(first: AgentResponse, jar: CookieJar, route?: Route): Promise<AgentResponse> {
  let current = first;
  for (
    let hops = 0;
    hops < 10 && current.status >= 300 && current.status < 400 && current.headers.location;
    hops += 1
  ) {
    current = await send(new URL(String(current.headers.location), current.url).toString(), {
      jar,
      ...(route ? { route } : {}),
    });
  }
  return current;
}

function formFields(html: string): { action: string; fields: Record<string, string> } | null {
  const action = html.match(/<form[^>]*action="([^"]*)"/i)?.[1];
  if (!action) return null;
  const fields: Record<string, string> = {};
  for (const match of html.matchAll(/<input[^>]*name="([^"]*)"[^>]*value="([^"]*)"/gi))
    fields[decodeHtml(match[1]!)] = decodeHtml(match[2]!);
  return { action: decodeHtml(action), fields };
}

export interface LaunchOptions {
  userId: string;
  resourceLinkId?: string;
  messageType?: 'LtiResourceLinkRequest' | 'LtiDeepLinkingRequest' | 'LtiSubmissionReviewRequest';
  /** A submission review (the gradebook's grade analysis): the user whose submission it opens. */
  forUserId?: string;
  /** Deep linking from this LMS assignment's "Add document processing app" (an Asset Processor). */
  activity?: { id: string; title: string };
  /** One of the Asset Processor's own launches: report review, settings, EULA. */
  assetProcessor?: AssetProcessorLaunch;
  /** Reuse a jar (a browser that already has the tool's cookies); a new one by default. */
  jar?: CookieJar;
  /** Change the id_token before it is posted (forged, replayed or tampered launches). */
  replaceIdToken?: (idToken: string) => string | Promise<string>;
  /** Drop the cookies the tool set at login (third-party cookies blocked in the LMS iframe). */
  dropCookies?: boolean;
  /** Change the posted fields (a missing state, for one). */
  editForm?: (fields: Record<string, string>) => Record<string, string>;
  /**
   * Offer LTI platform storage at login (lti_storage_target), and play the browser's part of it: go on where the
   * tool's page would after lti.put_data, and post the launch on from the tool's page after lti.get_data.
   */
  storageTarget?: string;
}

/** The address the tool's platform-storage page goes on to once the LMS kept the state (its data-next). */
function storageNext(html: string): string | null {
  const next = html.match(/id="lti-storage"[^>]*data-next="([^"]+)"/)?.[1];
  return next ? decodeHtml(next) : null;
}

export async function launch(
  platform: Pick<DevPlatform, 'loginInitiationUrl'> & Partial<Pick<DevPlatform, 'served'>>,
  options: LaunchOptions,
): Promise<LaunchResult> {
  const jar = options.jar ?? new CookieJar();
  const route = platform.served?.bind(platform);
  const login = await send(
    platform.loginInitiationUrl({
      userId: options.userId,
      ...(options.resourceLinkId ? { resourceLinkId: options.resourceLinkId } : {}),
      ...(options.messageType ? { messageType: options.messageType } : {}),
      ...(options.activity ? { activity: options.activity } : {}),
      ...(options.storageTarget ? { storageTarget: options.storageTarget } : {}),
      ...(options.assetProcessor ? { assetProcessor: options.assetProcessor } : {}),
      ...(options.forUserId ? { forUserId: options.forUserId } : {}),
    }),
    { jar },
  );
  const next =
    login.status === 200 && options.storageTarget
      ? storageNext(login.body)
      : login.headers.location
        ? String(login.headers.location)
        : null;
  if (!next || (login.status !== 200 && (login.status < 300 || login.status >= 400)))
    return { ...login, idToken: '', state: '', ltik: null };
  // Hosted Canvas's SSO host sends the browser on to the school's own authorization (devplatform/sso.ts).
  const authorization = await follow(
    await send(new URL(next, login.url).toString(), { jar, ...(route ? { route } : {}) }),
    jar,
    route,
  );
  const form = formFields(authorization.body);
  if (authorization.status !== 200 || !form) return { ...authorization, idToken: '', state: '', ltik: null };
  const idToken = options.replaceIdToken
    ? await options.replaceIdToken(form.fields.id_token ?? '')
    : (form.fields.id_token ?? '');
  if (options.dropCookies) jar.clear();
  const fields = options.editForm
    ? options.editForm({ ...form.fields, id_token: idToken })
    : { ...form.fields, id_token: idToken };
  let posted = await send(form.action, { method: 'POST', form: fields, jar });
  const check =
    options.storageTarget && posted.status === 200 && posted.body.includes('id="lti-launch"')
      ? formFields(posted.body)
      : null;
  if (check) {
    const action = new URL(check.action, posted.url);
    posted = await send(action.toString(), {
      method: 'POST',
      form: check.fields,
      jar,
      headers: { origin: action.origin },
    });
  }
  const final = await follow(posted, jar);
  const location = posted.headers.location ? String(posted.headers.location) : '';
  const ltik = new URL(location || final.url, final.url).searchParams.get('ltik');
  return { ...final, idToken: form.fields.id_token ?? '', state: form.fields.state ?? '', ltik };
}

/** Posts a form the tool rendered (the deep-linking page, for one) and follows the answer. */
export async function submitForm(
  html: string,
  baseUrl: string,
  jar = new CookieJar(),
  edit?: (fields: Record<string, string>) => Record<string, string>,
): Promise<AgentResponse> {
  const form = formFields(html);
  if (!form) throw new Error('The page has no form');
  const fields = edit ? edit(form.fields) : form.fields;
  return follow(await send(new URL(form.action, baseUrl).toString(), { method: 'POST', form: fields, jar }), jar);
}
