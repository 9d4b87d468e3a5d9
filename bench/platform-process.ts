// The dev platform in a process of its own, so that its signing of id_tokens and notices and its gradebook cost the
// tool's process nothing: `node --import tsx bench/platform-process.ts TOOL_URL STUDENTS`. It prints
// `READY {url, registration, loginTemplate, controlUrl}` and serves, beside the platform, controls for the
// benchmarks: a summary of its gradebook (GET /control/grades), and for the Asset Processor: attaching the tool to an
// LMS assignment (POST /control/attach), a student's submission to it (POST /control/submit), a submission's notice
// sent again (POST /control/resend) and a summary of the asset reports (GET /control/asset-reports).
import { AsyncLocalStorage } from 'node:async_hooks';
import express from 'express';
import { defaultSettings } from '../src/assignments/settings.js';
import { launch, submitForm } from '../src/devplatform/agent.js';
import { ROLES, SubmissionRefused, type DevPlatform, type NoticeAsset } from '../src/devplatform/index.js';
import { settingsForm } from '../test/support/forms.js';
import { servePlatform } from '../test/support/platform.js';

export const RESOURCE_LINK = 'essay';
export const USER_PLACEHOLDER = '__USER__';

export interface PlatformInfo {
  url: string;
  controlUrl: string;
  registration: {
    name: string;
    issuer: string;
    clientId: string;
    deploymentId: string;
    authUrl: string;
    tokenUrl: string;
    jwksUrl: string;
  };
  /** The login initiation address for the essay link with USER_PLACEHOLDER for the user. */
  loginTemplate: string;
}

/** What the gradebook holds, and how often each student's final score was accepted. */
export interface GradeSummary {
  scores: number;
  fullyGraded: number;
  /** Accepted FullyGraded posts in all: one per student when nothing is graded twice. */
  fullyGradedPosts: number;
  /** Students with more than one accepted FullyGraded post. */
  gradedTwice: number;
}

/** A notice delivered to the tool: its answer, and the milliseconds from sending it to the tool's answer. */
export interface NoticeSent {
  submissionId: string;
  assetIds: string[];
  status: number;
  /** The tool's answer when it was not 200. */
  body?: string;
  ms: number;
}

/** The originality reports the Asset Report Service took. */
export interface AssetReportSummary {
  /** Assets whose latest originality report is Processed, and Failed. */
  processed: number;
  failed: number;
  /** Accepted originality posts saying Processed; assets with more than one. */
  processedPosts: number;
  processedTwice: number;
  /** Assets with more accepted Processed posts than notices named them (a notice sent again re-sends the latest report). */
  processedBeyondNotices: number;
  /** Posts of any type answered other than 201, and the first of them. */
  refused: number;
  firstRefused: { status: number; body: unknown } | null;
}

const SUBMISSION_NOTICE = 'LtiAssetProcessorSubmissionNotice';

/** The settings an instructor attaches with: as the surge's essay (bench/stack.ts), no comparison with other students' papers. */
function attachForm(ltik: string): URLSearchParams {
  const form = settingsForm(defaultSettings(), ltik);
  form.set('title', 'Originality check');
  form.delete('studentPapers');
  form.delete('institutionRepository');
  return form;
}

/** The instructor's "Add document processing app" on the LMS assignment: the deep-linking launch, the tool's form, the answer back. */
async function attach(
  platform: DevPlatform,
  toolUrl: string,
  activity: { id: string; title: string },
): Promise<string | null> {
  const page = await launch(platform, { userId: 'instructor-1', messageType: 'LtiDeepLinkingRequest', activity });
  if (page.status !== 200) return `the deep-linking launch answered ${page.status}`;
  const ltik = page.body.match(/name="ltik" value="([^"]+)"/)?.[1] ?? '';
  const answer = await fetch(`${toolUrl}/asset-processor/attach`, {
    method: 'POST',
    body: attachForm(ltik),
    redirect: 'manual',
  });
  const body = await answer.text();
  if (answer.status !== 200) return `the attach form answered ${answer.status}`;
  const returned = await submitForm(body, toolUrl);
  if (returned.status !== 200) return `the deep-linking response answered ${returned.status}`;
  return platform.assetProcessors().some((processor) => processor.activityId === activity.id)
    ? null
    : 'no processor was attached';
}

/**
 * Times the platform's POST of a notice to the tool, from sending it to the tool's answer (its headers: the tool
 * answers once the notice is committed). The platform's own work before it (storing the file, signing) is left out.
 */
const noticeTimer = new AsyncLocalStorage<{ ms: number }>();

function timeNotices(): void {
  const plainFetch = globalThis.fetch;
  globalThis.fetch = async (...args: Parameters<typeof fetch>) => {
    const timer = noticeTimer.getStore();
    const started = performance.now();
    const answer = await plainFetch(...args);
    if (timer) timer.ms = performance.now() - started;
    return answer;
  };
}

async function timed<T extends { status: number; body: string }>(
  send: () => Promise<T>,
): Promise<{ answer: T; ms: number }> {
  const timer = { ms: Number.NaN };
  const answer = await noticeTimer.run(timer, send);
  return { answer, ms: timer.ms };
}

/** A report the platform kept: Canvas answers 201, Moodle's report service 200. */
const kept = (status: number) => status >= 200 && status < 300;

async function main(toolUrl: string, students: number, lms: string | undefined): Promise<void> {
  timeNotices();
  // 'moodle': the platform plays Moodle with this repository's plugins (the dev platform's dialect 'moodle').
  const served = await servePlatform(toolUrl, lms === 'moodle' ? { rules: 'moodle', dialect: 'moodle' } : {});
  const { platform } = served;
  platform.addResourceLink({
    id: RESOURCE_LINK,
    title: 'Essay',
    lineItem: { label: 'Essay', scoreMaximum: 100, tag: 'similarity' },
  });
  for (let i = 1; i <= students; i += 1)
    platform.addUser({
      id: `student-${i}`,
      name: `Student ${i}`,
      email: `student-${i}@example.edu`,
      roles: ROLES.learner,
    });

  served.app.get('/control/grades', (_req, res) => {
    const posts = new Map<string, number>();
    for (const entry of platform.scoreLog()) {
      const body = entry.body as { gradingProgress?: string };
      if (entry.status < 300 && body.gradingProgress === 'FullyGraded')
        posts.set(entry.userId, (posts.get(entry.userId) ?? 0) + 1);
    }
    const book = platform.gradebook();
    const summary: GradeSummary = {
      scores: book.length,
      fullyGraded: book.filter((row) => row.gradingProgress === 'FullyGraded').length,
      fullyGradedPosts: [...posts.values()].reduce((sum, n) => sum + n, 0),
      gradedTwice: [...posts.values()].filter((n) => n > 1).length,
    };
    res.json(summary);
  });

  const json = express.json({ limit: '1mb' });
  served.app.post('/control/attach', json, async (req, res) => {
    const failure = await attach(platform, toolUrl, req.body as { id: string; title: string });
    res.status(failure ? 500 : 200).json({ error: failure });
  });

  // Moodle's way of attaching: the teacher switches the check on in the assignment's form (no launch).
  served.app.post('/control/switch-on', json, (req, res) => {
    platform.switchOnCheck((req.body as { id: string }).id, `${toolUrl}/asset-processor/notices`);
    res.json({});
  });

  // The LMS submissions made here, to send their notices again; and how many notices named each asset.
  const submissions = new Map<string, { activityId: string; userId: string; assets: NoticeAsset[] }>();
  const noticesPerAsset = new Map<string, number>();
  const named = (assets: NoticeAsset[]) =>
    assets.forEach((asset) => noticesPerAsset.set(asset.asset_id, (noticesPerAsset.get(asset.asset_id) ?? 0) + 1));
  const sent = (submissionId: string, assets: NoticeAsset[], status: number, body: string, ms: number): NoticeSent => ({
    submissionId,
    assetIds: assets.map((asset) => asset.asset_id),
    status,
    ...(status === 200 ? {} : { body }),
    ms,
  });

  served.app.post('/control/submit', json, async (req, res) => {
    const { activityId, userId, filename, text } = req.body as {
      activityId: string;
      userId: string;
      filename: string;
      text: string;
    };
    try {
      const { answer, ms } = await timed(() =>
        platform.submitToActivity({
          activityId,
          userId,
          files: [{ content: Buffer.from(text), filename, contentType: 'text/plain' }],
        }),
      );
      submissions.set(answer.submissionId, { activityId, userId, assets: answer.assets });
      named(answer.assets);
      res.json(sent(answer.submissionId, answer.assets, answer.status, answer.body, ms));
    } catch (error) {
      if (!(error instanceof SubmissionRefused)) throw error;
      res.status(error.status).json({ error: error.message });
    }
  });

  // A submission's notice again, as a "Resubmit all files" sends it: the same submission and assets, a new notice id.
  served.app.post('/control/resend', json, async (req, res) => {
    const { submissionId } = req.body as { submissionId: string };
    const submission = submissions.get(submissionId);
    const handler = platform.noticeHandlers()[SUBMISSION_NOTICE];
    if (!submission || !handler)
      return void res
        .status(409)
        .json({ error: submission ? 'no notice handler registered' : `no submission ${submissionId}` });
    const custom =
      platform.assetProcessors().find((processor) => processor.activityId === submission.activityId)?.custom ?? {};
    const jwt = await platform.sign(
      platform.submissionNotice({ ...submission, submissionId, ...(Object.keys(custom).length ? { custom } : {}) }),
    );
    const { answer, ms } = await timed(async () => {
      const response = await fetch(handler, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ notices: [{ jwt }] }),
        redirect: 'manual',
      });
      return { status: response.status, body: await response.text() };
    });
    named(submission.assets);
    res.json(sent(submissionId, submission.assets, answer.status, answer.body, ms));
  });

  // The LMS's file service failing (Asset Processor): the dev platform's faults, as a test switches them.
  served.app.post('/control/faults', json, (req, res) => {
    platform.setFaults(req.body as Parameters<DevPlatform['setFaults']>[0]);
    res.json({});
  });

  // When each asset's reports arrived, by progress (ms since the epoch): the first of each, and the last.
  served.app.get('/control/report-times', (_req, res) => {
    const times: Record<string, Record<string, number>> = {};
    for (const entry of platform.assetReportLog()) {
      const body = entry.body as { assetId?: string; type?: string; processingProgress?: string } | null;
      if (!kept(entry.status) || body?.type !== 'originality' || !body.assetId || !body.processingProgress) continue;
      const asset = (times[body.assetId] ??= {});
      asset[body.processingProgress] ??= entry.at;
    }
    res.json(times);
  });

  served.app.get('/control/asset-reports', (_req, res) => {
    const latest = platform.assetReports().filter((report) => report.type === 'originality');
    const posts = new Map<string, number>();
    const log = platform.assetReportLog();
    for (const entry of log) {
      const body = entry.body as { assetId?: string; type?: string; processingProgress?: string } | null;
      if (kept(entry.status) && body?.type === 'originality' && body.processingProgress === 'Processed')
        posts.set(body.assetId!, (posts.get(body.assetId!) ?? 0) + 1);
    }
    const refused = log.filter((entry) => !kept(entry.status));
    const summary: AssetReportSummary = {
      processed: latest.filter((report) => report.processingProgress === 'Processed').length,
      failed: latest.filter((report) => report.processingProgress === 'Failed').length,
      processedPosts: [...posts.values()].reduce((sum, n) => sum + n, 0),
      processedTwice: [...posts.values()].filter((n) => n > 1).length,
      processedBeyondNotices: [...posts].filter(([assetId, n]) => n > (noticesPerAsset.get(assetId) ?? 0)).length,
      refused: refused.length,
      firstRefused: refused[0] ?? null,
    };
    res.json(summary);
  });

  const info: PlatformInfo = {
    url: served.url,
    controlUrl: served.url.replace(/\/lms$/, '/control'),
    registration: platform.registration(),
    loginTemplate: platform.loginInitiationUrl({ userId: USER_PLACEHOLDER, resourceLinkId: RESOURCE_LINK }),
  };
  process.stdout.write(`READY ${JSON.stringify(info)}\n`);
  process.on('SIGTERM', () => process.exit(0));
}

if (process.argv[1]?.endsWith('platform-process.ts'))
  await main(process.argv[2]!, Number(process.argv[3] ?? 0), process.argv[4]);
