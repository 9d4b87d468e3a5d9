// Who may frame each answer of the tool, in one place. An LMS shows the tool in an iframe of its own pages; the
// browser lets it only when the answer's CSP names the LMS in frame-ancestors (security-headers.ts starts every
// answer at 'self'). The rule:
// - a page in a session: that session's platform only (its origins and the host its launch came back to), never
//   another school's LMS (frameForSession);
// - a refused launch (the login's or the launch's checks turned it down: unknown client or deployment, a pending or
//   switched-off registration, a state expired or used): anyone, since the LMS that shows it may be one the tool does
//   not know yet, or not by that address, and its frame would otherwise show the browser's broken-page icon instead
//   of the sentence and what the LMS administrator must do. Such a page holds one sentence and nothing that acts: no
//   form, no link, no cookie set (refusedLaunch; docs/security.md);
// - a page of one sentence with no session (a session that ended, a page not found): the platform
//   it names (the launch's issuer and client, the ended session's key), read without trusting it, and only while
//   that platform is registered and active (a pending registration frames nothing until it is switched on, and a
//   launch naming a stranger is framed by no one); a page that names no platform, every active platform while their
//   origins stay few (lti/frame-origins.ts). So the sentence shows in the LMS's frame instead of the browser's
//   broken-frame icon. Nothing on such a page acts for anyone, and a stranger's site is never among the origins
//   (frameSentence);
// - the page that keeps a launch's state in the LMS's window (platform storage): the platform the login or launch
//   names (lti-guard.ts, launch-route.ts);
// - the answer of /lti/register: the LMS whose configuration it validated, or anyone for a failure that shows one
//   sentence before the LMS is known (registration.ts);
// - everything else (the admin page opened with ADMIN_TOKEN): the tool alone, so registering a platform never lets
//   it frame them.
// With the session's platform comes its product family, which gives the pages the LMS's look (lookOf in views.ts);
// where the registration names none, the launch's tool_platform.product_family_code does.
import type { RequestHandler, Response } from 'express';
import type { Kysely } from 'kysely';
import type { DatabaseSchema } from '../db/index.js';
import { claimedPlatformFrameOrigins, everyPlatformFrameOrigins, platformFrame } from '../lti/frame-origins.js';
import type { Session } from '../lti/session.js';

interface FramingLocals {
  framingDb?: Kysely<DatabaseSchema>;
  /** Set once the answer is framed for a session: a sentence in it widens nothing further. */
  framedForSession?: boolean;
  /** The platform an answer without a session is about, as the request claims it. */
  namedPlatform?: { issuer: string; clientId: string };
  /** The product family of the session's platform (lookOf in views.ts). */
  lmsFamily?: string | null;
  /** A refused launch's sentence: any site may frame it. */
  refusedLaunch?: boolean;
}

const locals = (res: Response) => res.locals as FramingLocals;

/** Lets this answer be framed by `origins` too. */
export function allowFramingBy(res: Response, origins: readonly string[]): void {
  const current = res.getHeader('Content-Security-Policy');
  if (typeof current !== 'string') return;
  res.setHeader(
    'Content-Security-Policy',
    current.replace(/frame-ancestors ([^;]*)/, (_directive, sources: string) => {
      // Compared as whole sources: http://host:3791 is not already allowed because http://host:37913 is.
      const listed = sources.split(' ').filter(Boolean);
      return `frame-ancestors ${[...new Set([...listed, ...origins])].join(' ')}`;
    }),
  );
}

/**
 * Lets anyone frame this answer. Only for a page that shows one sentence and holds nothing to click on behalf of
 * anyone (a registration that failed before the LMS could be told apart from any other site).
 */
export function allowFramingByAnyone(res: Response): void {
  const current = res.getHeader('Content-Security-Policy');
  if (typeof current !== 'string') return;
  res.setHeader('Content-Security-Policy', current.replace(/frame-ancestors ([^;]*)/, 'frame-ancestors *'));
}

/** Keeps the database at hand for the answers framed later in the request (frameSentence). */
export function framingFrom(db: Kysely<DatabaseSchema>): RequestHandler {
  return (_req, res, next) => {
    locals(res).framingDb = db;
    next();
  };
}

/** The session's own platform may frame the page, with the host its launch came from; no other platform may. */
export async function frameForSession(
  deps: { db: Kysely<DatabaseSchema> },
  res: Response,
  session: Pick<Session, 'platformId' | 'launch'>,
): Promise<void> {
  const frame = await platformFrame(deps.db, session.platformId);
  allowFramingBy(res, session.launch.frameOrigin ? [...frame.origins, session.launch.frameOrigin] : frame.origins);
  // The product the registration names; when it names none (a platform added by hand), the one the launch names.
  const lmsFamily = frame.productFamily ?? session.launch.productFamily;
  Object.assign(locals(res), { framedForSession: true, lmsFamily });
}

/** Notes the platform a request without a session claims to come from (a launch, an ended session's key). */
export function namePlatform(res: Response, claim: { issuer: string; clientId: string } | null): void {
  if (claim) locals(res).namedPlatform = claim;
}

/**
 * Marks this answer as a refused launch's sentence, which any site may frame: it shows one sentence and what the LMS
 * administrator must do, and holds nothing that acts (no form, no link, no cookie), so framing it lets no one do
 * anything on anyone's behalf. A page in a session keeps its session's platform alone.
 */
export function refusedLaunch(res: Response): void {
  locals(res).refusedLaunch = true;
}

/** The product family of the LMS this answer is framed for, when a session said it; null: not known. */
export function lmsFamilyOf(res: Response): string | null {
  return locals(res).lmsFamily ?? null;
}

/**
 * Widens who may frame a page of one sentence outside a session: the platform the request named while it is active
 * (none when it is pending, switched off or unknown), or, when the request names none, every active platform. A page
 * in a session keeps its session's platform alone.
 */
export async function frameSentence(res: Response): Promise<void> {
  const { framingDb: db, framedForSession, namedPlatform, refusedLaunch } = locals(res);
  if (framedForSession) return;
  if (refusedLaunch) return allowFramingByAnyone(res);
  if (!db) return;
  allowFramingBy(
    res,
    namedPlatform ? await claimedPlatformFrameOrigins(db, namedPlatform) : await everyPlatformFrameOrigins(db),
  );
}
