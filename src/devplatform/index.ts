// An LTI 1.3 platform emulator: what Moodle or Canvas does on the other side of the tool. It keeps everything in
// memory; the tests, the benchmarks and the local demo drive it. Each concern has its file and mounts its routes:
// keys.ts (JWKS), oidc.ts and id-token.ts (the launch), platform-storage.ts (the framed launch), deep-linking.ts,
// token.ts (service access tokens), ags.ts, nrps.ts, registration.ts (dynamic registration), notice-handlers.ts,
// asset-processors.ts, the Asset Processor's services (assets.ts, asset-reports.ts), lms-submissions.ts (students'
// submissions to the LMS's own assignments and their notices), the pages: page.ts (/dev), assignment-page.ts (an
// LMS assignment and its submit form) and speedgrader.ts (a submission's reports, "View report": report-review.ts),
// asset-processor-launches.ts and eula.ts (the Asset Processor's other launches and its EULA service).
// Here they are put together, with the handle the tests and the tool hold.
import { randomUUID } from 'node:crypto';
import type { AssetProcessorDialect } from './dialect.js';
import { Router } from 'express';
import { gradebook, lineItemJson, mountAgs, type GradebookRow } from './ags.js';
import {
  courseTotals,
  gradeAsTeacher,
  needsGrading,
  postGrades,
  studentView,
  teacherComments,
  type CourseTotal,
  type StudentView,
} from './ags-gradebook.js';
import type { MountConcern, PlatformContext, SsoHost, ToolAddresses } from './context.js';
import { mountDeepLinkReturn } from './deep-linking.js';
import { mountEula } from './eula.js';
import { createKeys, jwksUrl, mountJwks } from './keys.js';
import { mountAssetProcessorCss } from './asset-processor-css.js';
import { mountClock } from './clock.js';
import { mountAssignmentPages } from './assignment-page.js';
import { mountAssetReportService, reportJson } from './asset-reports.js';
import { mountAssetService, storeAsset } from './assets.js';
import {
  resubmitAll,
  submitToActivity,
  SUBMISSION_NOTICE,
  type NoticeDelivery,
  type SubmitOptions,
} from './lms-submissions.js';
import { mountNoticeHandlers } from './notice-handlers.js';
import { submissionNotice, type NoticeAsset, type SubmissionNoticeOptions } from './notices.js';
import { mountNrps } from './nrps.js';
import { authUrl, loginInitiationUrl, mountAuthorization, type LoginInitiation } from './oidc.js';
import { mountPage } from './page.js';
import { fileStore, restore } from './persistence.js';
import { mountFramedLaunch } from './platform-storage.js';
import { mountSpeedGrader } from './speedgrader.js';
import { ssoRouter } from './sso.js';
import { mountDynamicRegistration, registrationUrl } from './registration.js';
import {
  DEFAULT_COURSE,
  DEFAULT_USERS,
  addResourceLink,
  createMemory,
  scoreKey,
  type AssetReport,
  type AttachedProcessor,
  type Course,
  type DevUser,
  type LineItem,
  type NewAsset,
  type NewResourceLink,
  type PlatformFaults,
  type PlatformRules,
  type ResourceLink,
  type ScoreLogEntry,
} from './state.js';
import { mountTokenEndpoint, tokenUrl } from './token.js';

export type { GradebookRow } from './ags.js';
export type { CourseTotal, StudentView } from './ags-gradebook.js';
export type { AssetReport } from './state.js';
export { SubmissionRefused, type SubmitOptions } from './lms-submissions.js';
export type { NoticeAsset } from './notices.js';
export type { DevUser, PlatformRules, Score } from './state.js';
export { ROLES } from './state.js';

export interface DevPlatformOptions {
  /** Where the router is reachable, e.g. http://127.0.0.1:3000/dev; also the issuer unless `issuer` says another. */
  baseUrl: string;
  /** The `iss` it signs with when it is not its address: hosted Canvas's shared https://canvas.instructure.com. */
  issuer?: string;
  /**
   * Hosted Canvas's SSO host, played beside baseUrl (sso.ts): its published origin, whose keys, OIDC authorization
   * and token addresses the platform names, and where `ssoRouter` is served.
   */
  sso?: SsoHost;
  clientId?: string;
  deploymentId?: string;
  tool: ToolAddresses;
  rules?: PlatformRules;
  /** The Asset Processor's dialect: Canvas's (the default) or Blackboard's (dialect.ts). */
  dialect?: AssetProcessorDialect;
  course?: Course;
  users?: DevUser[];
  /**
   * A file its course and gradebook are kept in across restarts (persistence.ts): read at start when it exists,
   * written after each change. None: in memory only (the tests).
   */
  stateFile?: string;
}

export interface DevPlatform {
  router: Router;
  /** The router of the SSO host it plays (options.sso), to be served at its servedAt; null when it plays none. */
  ssoRouter: Router | null;
  /** Where a browser reaches an address the platform names: its SSO host's published ones at their servedAt. */
  served(url: string): string;
  registration(): {
    name: string;
    issuer: string;
    clientId: string;
    deploymentId: string;
    authUrl: string;
    tokenUrl: string;
    jwksUrl: string;
  };
  users(): DevUser[];
  course(): Course;
  addUser(user: DevUser): void;
  addResourceLink(link: NewResourceLink): ResourceLink;
  resourceLinks(): ResourceLink[];
  lineItems(): LineItem[];
  loginInitiationUrl(options: LoginInitiation): string;
  gradebook(): GradebookRow[];
  /**
   * Each student's course total, over graded cells only (as Moodle and Canvas compute it), as the teacher reads it
   * or as the student reads their own (Canvas: posted grades only).
   */
  courseTotals(view?: 'teacher' | 'student'): CourseTotal[];
  /** The cells the LMS lists for its teacher to grade (Canvas's "needs grading", Brightspace's "ready for evaluation"). */
  toGrade(): GradebookRow[];
  /** A cell as its student reads it: the grade shown (null: none) and the comments they see. */
  studentView(row: GradebookRow): StudentView;
  /** Every comment a cell holds, as its teacher reads them. */
  teacherComments(row: GradebookRow): string[];
  /** The teacher grades a student in the LMS's gradebook (the line item's own id, as lineItems() gives it in its url's path). */
  gradeAsTeacher(lineItemId: string, userId: string, score: number): void;
  /** Canvas: the column's assignment posts grades by hand (a manual post policy) or, false, at once. */
  setPostManually(lineItemId: string, manual: boolean): void;
  /** Canvas: the teacher posts the column's grades (and comments) to the students. */
  postGrades(lineItemId: string): void;
  scoreLog(): ScoreLogEntry[];
  attempts(lineItemId: string, userId: string): number;
  setRules(rules: PlatformRules): void;
  setDialect(dialect: AssetProcessorDialect): void;
  setFaults(faults: PlatformFaults): void;
  /** AGS and NRPS requests being held by the agsDelayMs fault right now. */
  heldRequests(): number;
  /** Report posts being held by the assetReportDelayMs fault right now. */
  heldReports(): number;
  deepLinkResults(): Array<{ resourceLinkId: string; contentItems: unknown[] }>;
  /** Every client assertion the token endpoint received, the access token it gave for it (null: refused) and the scopes granted. */
  tokenExchanges(): Array<{ clientAssertion: string; accessToken: string | null; scopes: string[] }>;
  /** Signs any payload with the platform's key (tests forge launches with it or with another key). */
  sign(payload: Record<string, unknown>, options?: { expiresInSeconds?: number }): Promise<string>;
  /** The address an LMS administrator opens to register the tool dynamically (tool URL + configuration + token). */
  registrationUrl(toolRegisterUrl: string): string;
  /** What tools sent to the registration endpoint. */
  dynamicRegistrations(): Array<Record<string, unknown>>;
  /** The tool's notice handler per notice type, as it registered them with the notification service. */
  noticeHandlers(): Record<string, string>;
  /** The document processors attached to the LMS's own assignments. */
  assetProcessors(): AttachedProcessor[];
  /**
   * Moodle's way of attaching (moodle/plagiarism_olti): the teacher switches the check on in the assignment's own
   * form, and the administrator named the tool's notice address in the plugin's settings; no launch tells the tool.
   */
  switchOnCheck(activityId: string, noticeUrl: string): void;
  /** A submission notice's claims as Canvas sends them, for signing with `sign` (tests change one to forge a notice). */
  submissionNotice(options: SubmissionNoticeOptions): Record<string, unknown>;
  /** Keeps a file (or, as text/html without a file name, a text entry) in the Asset Service; its notice entry. */
  storeAsset(asset: NewAsset): NoticeAsset;
  /** The bytes the Asset Service serves for an asset. */
  assetContent(assetId: string): Buffer | undefined;
  /**
   * A student's submission to the LMS's assignment: its assets stored and one notice per attached processor POSTed
   * to the tool's handler, whose answer comes back (status 0: unreachable). Throws SubmissionRefused when no
   * processor is attached or no handler registered.
   */
  submitToActivity(options: SubmitOptions): Promise<NoticeDelivery & { submissionId: string; assets: NoticeAsset[] }>;
  /** Canvas's "Resubmit all files": the notice again, when Canvas would offer it; else the reason. */
  resubmitAll(submissionId: string): Promise<({ sent: true } & NoticeDelivery) | { sent: false; reason: string }>;
  /** The latest report per (asset, type). */
  assetReports(): Array<AssetReport & Record<string, unknown>>;
  /** Every report POSTed, with the status it was answered. */
  assetReportLog(): Array<{ body: unknown; status: number; at: number }>;
  /** The acceptances the EULA service received, by user (Asset Processor). */
  eulaAcceptances(): Array<{ userId: string; accepted: boolean; timestamp: string }>;
}

const CONCERNS: MountConcern[] = [
  mountPage,
  mountFramedLaunch,
  mountJwks,
  mountAuthorization,
  mountTokenEndpoint,
  mountAgs,
  mountNrps,
  mountDeepLinkReturn,
  mountDynamicRegistration,
  mountNoticeHandlers,
  mountAssetService,
  mountAssetReportService,
  mountAssetProcessorCss,
  mountClock,
  mountAssignmentPages,
  mountSpeedGrader,
  mountEula,
];

export async function createDevPlatform(options: DevPlatformOptions): Promise<DevPlatform> {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const platform: PlatformContext = {
    issuer: options.issuer ?? baseUrl,
    baseUrl,
    sso: options.sso ?? null,
    clientId: options.clientId ?? 'dev-client',
    deploymentId: options.deploymentId ?? 'dev-deployment',
    course: options.course ?? DEFAULT_COURSE,
    tool: options.tool,
    keys: await createKeys(options.tool.jwksUrl),
    memory: createMemory({
      rules: options.rules ?? 'spec',
      users: options.users ?? DEFAULT_USERS,
      ...(options.dialect ? { dialect: options.dialect } : {}),
    }),
  };
  const { issuer, clientId, deploymentId, memory } = platform;
  const router = Router();
  const store = options.stateFile ? fileStore(options.stateFile) : null;
  if (options.stateFile) restore(memory, options.stateFile);
  const saved =
    <A extends unknown[], R>(change: (...args: A) => R) =>
    (...args: A): R => {
      const result = change(...args);
      store?.save(memory);
      return result;
    };
  // Every request that may change the course or the gradebook (a score, a line item, a deep link, a handler) is
  // followed by a write of what is kept; reads change nothing.
  if (store)
    router.use((req, res, next) => {
      if (req.method !== 'GET' && req.method !== 'HEAD') res.on('finish', () => store.save(memory));
      next();
    });
  for (const mount of CONCERNS) mount(router, platform);

  const { sso } = platform;
  return {
    router,
    ssoRouter: sso ? ssoRouter(platform) : null,
    served: (url) => (sso && url.startsWith(`${sso.origin}/`) ? `${sso.servedAt}${url.slice(sso.origin.length)}` : url),
    registration: () => ({
      name: `Dev platform (${memory.rules})`,
      issuer,
      clientId,
      deploymentId,
      authUrl: authUrl(platform),
      tokenUrl: tokenUrl(platform),
      jwksUrl: jwksUrl(platform),
    }),
    users: () => [...memory.people.values()],
    course: () => platform.course,
    addUser: saved((user: DevUser) => void memory.people.set(user.id, user)),
    addResourceLink: saved((link: NewResourceLink) => addResourceLink(memory, link)),
    resourceLinks: () => [...memory.links.values()],
    lineItems: () => [...memory.lineItems.values()].map((item) => lineItemJson(platform, item)),
    loginInitiationUrl: (init) => loginInitiationUrl(platform, init),
    gradebook: () => gradebook(platform),
    courseTotals: (view) => courseTotals(platform, view),
    toGrade: () => gradebook(platform).filter((row) => needsGrading(memory, row)),
    studentView: (row) => studentView(memory, row),
    teacherComments: (row) => teacherComments(row),
    gradeAsTeacher: saved((lineItemId: string, userId: string, score: number) =>
      gradeAsTeacher(platform, lineItemId, userId, score),
    ),
    setPostManually: saved((lineItemId: string, manual: boolean) => {
      if (manual) memory.postManually.add(lineItemId);
      else memory.postManually.delete(lineItemId);
    }),
    postGrades: saved((lineItemId: string) => postGrades(platform, lineItemId)),
    scoreLog: () => [...memory.scoreLog],
    attempts: (lineItemId, userId) => memory.attempts.get(scoreKey(lineItemId, userId)) ?? 0,
    setRules: (next) => void (memory.rules = next),
    setDialect: (next) => void (memory.dialect = next),
    setFaults: (next) => void (memory.faults = next),
    heldRequests: () => memory.heldRequests,
    heldReports: () => memory.heldReports,
    deepLinkResults: () => [...memory.deepLinkResults],
    tokenExchanges: () => [...memory.tokenExchanges],
    sign: (payload, signOptions) => platform.keys.sign(payload, signOptions),
    registrationUrl: (toolRegisterUrl) => registrationUrl(platform, toolRegisterUrl),
    dynamicRegistrations: () => [...memory.dynamicRegistrations],
    noticeHandlers: () => Object.fromEntries(memory.noticeHandlers),
    assetProcessors: () => [...memory.assetProcessors],
    switchOnCheck: (activityId, noticeUrl) => {
      memory.noticeHandlers.set(SUBMISSION_NOTICE, noticeUrl);
      if (memory.assetProcessors.some((processor) => processor.activityId === activityId)) return;
      const title = 'Originality check';
      memory.assetProcessors.push({
        id: randomUUID(),
        activityId,
        title,
        text: null,
        url: null,
        custom: {},
        report: null,
      });
    },
    submissionNotice: (noticeOptions) => submissionNotice(platform, noticeOptions),
    storeAsset: (asset) => storeAsset(platform, asset),
    assetContent: (assetId) => memory.assets.get(assetId)?.content,
    submitToActivity: (submission) => submitToActivity(platform, submission),
    resubmitAll: (submissionId) => resubmitAll(platform, submissionId),
    assetReports: () => [...memory.assetReports.values()].map(reportJson),
    assetReportLog: () => [...memory.assetReportLog],
    eulaAcceptances: () => [...memory.eulaAcceptances.values()],
  };
}
