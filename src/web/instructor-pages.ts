// The instructor's side: the dashboard, CSV export, the settings form and the per-row actions (send again,
// resend the grade, delete). Forms post the ltik in their body; a request without it (a cross-site form, for one)
// has no session and is refused.
import express, { Router, type Request, type Response } from 'express';
import type { Provider } from 'ltijs';
import { z } from 'zod';
import { DOCUMENT_TYPES, FILE_TYPES, MAX_EXCLUDED_PHRASES, SERVICE_MAX_FILE_MB, assignmentSettings, defaultSettings, type AssignmentSettings } from '../assignments/settings.js';
import type { Assignment } from '../assignments/store.js';
import type { PaperServices } from '../checker/index.js';
import { QUEUES, type Jobs, type QueueName } from '../jobs/index.js';
import { queueGradeResync, resyncGrade } from '../grades/resync.js';
import { RosterUnavailable, fetchRoster, type RosterMember } from '../lti/roster.js';
import type { Session } from '../lti/session.js';
import type { Logger } from '../logger.js';
import { classRows, eventsOf } from '../submissions/read-models.js';
import { removeSubmission } from '../submissions/remove.js';
import { attemptsOf, getSubmission, type Submission } from '../submissions/store.js';
import { assignmentFor } from './assignment-access.js';
import { dashboardRows, filterAndSort, histogramSvg, readDashboardQuery, toCsv } from './instructor-dashboard.js';
import { requireSession, sessionOf, type SessionDeps } from './session.js';
import { render, sendMessage } from './views.js';

export interface InstructorDeps extends SessionDeps {
  provider: Provider;
  jobs: Jobs;
  services: PaperServices;
  logger: Logger;
}

async function instructorAssignment(deps: InstructorDeps, req: Request, res: Response): Promise<{ session: Session; assignment: Assignment } | null> {
  const session = sessionOf(res);
  if (session.launch.audience !== 'instructor') {
    sendMessage(res, 403, 'Not available for your role', 'Only instructors of the course can do this.');
    return null;
  }
  const assignment = await assignmentFor(deps.db, session, req.params.id);
  if (typeof assignment === 'number') {
    sendMessage(res, assignment, 'Not available', 'This assignment is not part of the course you opened.');
    return null;
  }
  return { session, assignment };
}

async function rosterOf(deps: InstructorDeps, session: Session, assignment: Assignment): Promise<{ members: RosterMember[]; problem: string | null }> {
  const url = assignment.membershipsUrl ?? session.launch.membershipsUrl;
  if (!url) return { members: [], problem: 'The LMS does not share the class list with the tool, so students who have not submitted are not listed.' };
  try {
    return { members: await fetchRoster(deps.provider, { issuer: session.launch.issuer, clientId: session.launch.clientId }, url), problem: null };
  } catch (error) {
    if (!(error instanceof RosterUnavailable)) throw error;
    deps.logger.warn({ reason: error.message }, 'Roster not available');
    return { members: [], problem: 'The class list could not be read from the LMS just now; students who have not submitted are not listed.' };
  }
}

const checkbox = z.preprocess((value) => value === 'on' || value === 'true' || value === true, z.boolean());
/** An empty number field falls back to the setting's default. */
const numberField = z.preprocess((value) => (value === '' || value === undefined ? undefined : Number(value)), z.number().optional());

/** The settings form's fields, read into the settings schema (which keeps the limits). */
const settingsForm = z.object({
  excludeReferences: checkbox,
  excludeQuotes: checkbox,
  excludeSmallSources: checkbox,
  excludeThresholdWords: numberField,
  excludedPhrases: z.preprocess((value) => String(value ?? '').split('\n').map((line) => line.trim()).filter(Boolean), z.array(z.string())),
  studentPapers: checkbox,
  publications: checkbox,
  internet: checkbox,
  institutionRepository: checkbox,
  grammarCheck: checkbox,
  allowedFileTypes: z.preprocess((value) => (value === undefined ? [] : Array.isArray(value) ? value : [value]), z.array(z.string())),
  maxFileMb: numberField,
  resubmission: z.string(),
  maxAttempts: numberField,
  // Empty: no due date. Anything else must be the date field's "YYYY-MM-DDTHH:MM[:SS]" (UTC), or the form is
  // refused: a mistyped date silently read as "no due date" would reopen a closed assignment.
  dueAt: z.preprocess((value) => (value === undefined || value === '' ? null : value), z.string().nullable()),
  resultsVisibleTo: z.string(),
  showAiScoreToStudents: checkbox,
  gradeColumn: z.string().default('assignment'),
  bandYellow: numberField,
  bandOrange: numberField,
  bandRed: numberField,
  language: z.string().default(''),
  documentType: z.string().default(''),
  instructions: z.string().default(''),
});

/** A due date from the form's date field (UTC) as an ISO time; undefined when it is not one. */
function dueDate(value: string): string | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(value);
  if (!match) return undefined;
  const [year, month, day, hour, minute, second] = match.slice(1).map((part) => Number(part ?? 0)) as [number, number, number, number, number, number];
  const time = new Date(Date.UTC(year, month - 1, day, hour, minute, second));
  // Date.UTC rolls 31 April over to 1 May: a date that does not come back as written does not exist.
  const exists = time.getUTCFullYear() === year && time.getUTCMonth() === month - 1 && time.getUTCDate() === day && hour < 24 && minute < 60 && second < 60;
  return exists ? time.toISOString() : undefined;
}

/** What the instructor entered, shaped like the settings for the form to show again; an empty field stays empty. */
function asEntered(entered: Record<string, unknown> & { similarityBands: Array<number | undefined> }): AssignmentSettings {
  const given = Object.fromEntries(Object.entries(entered).filter(([, value]) => value !== undefined));
  return { ...defaultSettings(), ...given, similarityBands: entered.similarityBands.map((band) => band ?? '') } as unknown as AssignmentSettings;
}

/**
 * The settings from the form, or a sentence saying what to correct, with what was entered (shaped like the
 * settings, possibly out of bounds) so that the form shows it again.
 */
function readSettings(body: unknown): { settings: AssignmentSettings } | { error: string; entered?: AssignmentSettings } {
  const form = settingsForm.safeParse(body ?? {});
  if (!form.success) return { error: `The form could not be read: check the field "${form.error.issues[0]!.path.join('.')}".` };
  const f = form.data;
  const dueAt = f.dueAt === null ? null : dueDate(f.dueAt);
  const entered = {
    excludeReferences: f.excludeReferences,
    excludeQuotes: f.excludeQuotes,
    excludeSmallSources: f.excludeSmallSources,
    excludeThresholdWords: f.excludeThresholdWords,
    excludedPhrases: f.excludedPhrases,
    databases: { studentPapers: f.studentPapers, publications: f.publications, internet: f.internet, institutionRepository: f.institutionRepository },
    grammarCheck: f.grammarCheck,
    allowedFileTypes: f.allowedFileTypes,
    maxFileMb: f.maxFileMb,
    resubmission: f.resubmission,
    maxAttempts: f.maxAttempts,
    dueAt: dueAt ?? null,
    resultsVisibleTo: f.resultsVisibleTo,
    showAiScoreToStudents: f.showAiScoreToStudents,
    gradeColumn: f.gradeColumn,
    similarityBands: [f.bandYellow, f.bandOrange, f.bandRed],
    language: f.language,
    documentType: f.documentType,
    instructions: f.instructions,
  };
  if (dueAt === undefined) {
    return { error: 'Enter the due date as a date and a time (for example 2026-12-01 17:00, UTC), or leave it empty for no due date.', entered: asEntered(entered) };
  }
  const parsed = assignmentSettings.safeParse(entered);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = issue.path.join('.');
    const messages: Record<string, string> = {
      excludedPhrases: `Up to ${MAX_EXCLUDED_PHRASES} excluded phrases, one per line, 500 characters each at most.`,
      allowedFileTypes: 'Allow at least one file type.',
      maxFileMb: `The largest file must be between 1 and ${SERVICE_MAX_FILE_MB} MB (the service takes no more).`,
      maxAttempts: 'Attempts must be between 1 and 50.',
      excludeThresholdWords: 'The word threshold must be a whole number from 0 to 1000.',
      instructions: 'Instructions can be 10,000 characters at most.',
      similarityBands: 'Each colour band starts between 1 and 100 %, above the band before it (yellow, then orange, then red).',
      language: 'Name the language of the papers (60 characters at most).',
      documentType: `Choose a document type: ${DOCUMENT_TYPES.join(', ')}.`,
      gradeColumn: 'Choose the assignment\'s column or a separate similarity column.',
    };
    return { error: messages[field.split('.')[0]!] ?? `Check the field "${field}": ${issue.message}`, entered: asEntered(entered) };
  }
  return { settings: parsed.data };
}

/** What "send again" does in each state: the step the submission waits for. */
const RESEND: Partial<Record<Submission['state'], { queue: QueueName; done: string }>> = {
  received: { queue: QUEUES.upload, done: 'The paper is queued to be sent to the checking service again' },
  uploading: { queue: QUEUES.upload, done: 'The paper is queued to be sent to the checking service again' },
  processing: { queue: QUEUES.result, done: 'The checking service is asked for the result again' },
};
const RESYNC: Partial<Record<Submission['state'], { queue: QueueName; done: string }>> = {
  scored: { queue: QUEUES.grade, done: 'The score is queued for the gradebook again' },
  graded: { queue: QUEUES.grade, done: 'The score is queued for the gradebook again' },
};

const dashboardNotice = z.object({ notice: z.string().min(1).max(500), tone: z.enum(['ok', 'error']).default('ok') });
const rowAction = z.object({ submissionId: z.string().uuid(), action: z.enum(['resend', 'resync-grade', 'delete']) });

async function studentName(deps: InstructorDeps, userId: string): Promise<string> {
  const user = await deps.db.selectFrom('lti_user').select(['name', 'email', 'subject']).where('id', '=', userId).executeTakeFirst();
  return user?.name ?? user?.email ?? user?.subject ?? 'The student';
}

function backToDashboard(res: Response, found: { session: Session; assignment: Assignment }, notice: string, tone: 'ok' | 'error' = 'ok'): void {
  // The dashboard shows notices of up to 500 characters (a long name and a service's reason can make more).
  const shown = notice.length > 500 ? `${notice.slice(0, 499)}…` : notice;
  const query = new URLSearchParams({ ltik: found.session.ltik, notice: shown, tone });
  res.redirect(303, `/assignments/${found.assignment.id}/dashboard?${query}`);
}

/** Where the assignment's settings stand at the checking service, in a sentence. */
export function folderStatus(assignment: Assignment, saved: boolean): { state: Assignment['folderState']; text: string } {
  const { folderState: state } = assignment;
  if (state === 'ready') return { state, text: 'Applied: the checking service has these settings.' };
  if (state === 'failed') return { state, text: `The checking service has not accepted these settings yet: ${assignment.folderError ?? 'no reason given'}. The tool keeps trying.` };
  if (saved || assignment.folderId !== null) return { state, text: 'Being applied at the checking service…' };
  return { state, text: 'Not sent yet: the checking service gets these settings with the first paper, or when you save them.' };
}

export function instructorRoutes(deps: InstructorDeps): Router {
  const router = Router();
  const session = requireSession(deps);
  const form = express.urlencoded({ extended: false, limit: '64kb' });

  router.get('/assignments/:id/dashboard', session, async (req, res) => {
    const found = await instructorAssignment(deps, req, res);
    if (!found) return;
    const { session: s, assignment } = found;
    const query = readDashboardQuery(req.query);
    const roster = await rosterOf(deps, s, assignment);
    const all = dashboardRows(assignment, await classRows(deps.db, assignment.id), roster.members);
    const rows = filterAndSort(all, query);
    const notice = dashboardNotice.safeParse(req.query);
    res.send(
      render('instructor-dashboard', {
        assignment,
        rows,
        query,
        histogram: histogramSvg(all),
        rosterProblem: roster.problem,
        ltik: s.ltik,
        total: all.length,
        notice: notice.success ? notice.data : null,
      }),
    );
  });

  router.get('/assignments/:id/export.csv', session, async (req, res) => {
    const found = await instructorAssignment(deps, req, res);
    if (!found) return;
    const roster = await rosterOf(deps, found.session, found.assignment);
    const rows = filterAndSort(dashboardRows(found.assignment, await classRows(deps.db, found.assignment.id), roster.members), readDashboardQuery(req.query));
    const name = found.assignment.title.replace(/[^A-Za-z0-9 _-]/g, '').trim().replace(/\s+/g, '-').slice(0, 60) || 'assignment';
    res.setHeader('Content-Disposition', `attachment; filename="${name}-similarity.csv"`);
    res.type('text/csv; charset=utf-8').send(toCsv(rows));
  });

  const settingsPage = (found: { session: Session; assignment: Assignment }, view: { error: string | null; saved: boolean; settings?: AssignmentSettings }) =>
    render('instructor-settings', {
      assignment: found.assignment,
      settings: view.settings ?? found.assignment.settings,
      ltik: found.session.ltik,
      fileTypes: FILE_TYPES,
      documentTypes: DOCUMENT_TYPES,
      canCreateColumns: found.assignment.lineItemsUrl !== null,
      error: view.error,
      saved: view.saved,
      folder: folderStatus(found.assignment, view.saved),
      statusUrl: `/assignments/${found.assignment.id}/settings/status?ltik=${encodeURIComponent(found.session.ltik)}`,
    });

  router.get('/assignments/:id/settings', session, async (req, res) => {
    const found = await instructorAssignment(deps, req, res);
    if (!found) return;
    res.send(settingsPage(found, { error: null, saved: req.query.saved === '1' }));
  });

  router.post('/assignments/:id/settings', form, session, async (req, res) => {
    const found = await instructorAssignment(deps, req, res);
    if (!found) return;
    const result = readSettings(req.body);
    if ('error' in result) {
      res.status(400).send(settingsPage(found, { error: result.error, saved: false, ...(result.entered ? { settings: result.entered } : {}) }));
      return;
    }
    await deps.db
      .updateTable('assignment')
      .set({ settings: JSON.stringify(result.settings), folder_state: 'pending', updated_at: new Date() })
      .where('id', '=', found.assignment.id)
      .execute();
    await deps.jobs.send(QUEUES.folder, { assignmentId: found.assignment.id }, { key: found.assignment.id });
    // Scores already posted follow the similarity to its new column.
    if (result.settings.gradeColumn !== found.assignment.settings.gradeColumn) await queueGradeResync(deps.db, deps.jobs, { assignmentId: found.assignment.id });
    res.redirect(303, `/assignments/${found.assignment.id}/settings?saved=1&ltik=${encodeURIComponent(found.session.ltik)}`);
  });

  // Whether the checking service has the settings yet: the settings page asks until it knows.
  router.get('/assignments/:id/settings/status', session, async (req, res) => {
    const found = await instructorAssignment(deps, req, res);
    if (!found) return;
    res.setHeader('Cache-Control', 'no-store');
    res.json(folderStatus(found.assignment, true));
  });

  // Every state change of one submission, so that "stuck in pending" always has an answer.
  router.get('/assignments/:id/submissions/:submissionId/history', session, async (req, res) => {
    const found = await instructorAssignment(deps, req, res);
    if (!found) return;
    const id = z.string().uuid().safeParse(req.params.submissionId);
    const submission = id.success ? await getSubmission(deps.db, id.data) : null;
    if (!submission || submission.assignmentId !== found.assignment.id) {
      res.status(404).send(render('message', { title: 'Not found', message: 'There is no such submission in this assignment.', tone: 'error' }));
      return;
    }
    res.send(render('submission-history', { assignment: found.assignment, submission, events: await eventsOf(deps.db, submission.id), ltik: found.session.ltik }));
  });

  router.post('/assignments/:id/resync-grades', form, session, async (req, res) => {
    const found = await instructorAssignment(deps, req, res);
    if (!found) return;
    const queued = await queueGradeResync(deps.db, deps.jobs, { assignmentId: found.assignment.id });
    backToDashboard(res, found, `${queued} score${queued === 1 ? '' : 's'} queued for the gradebook.`);
  });

  router.post('/assignments/:id/submissions/:submissionId/:action', form, session, async (req, res) => {
    const found = await instructorAssignment(deps, req, res);
    if (!found) return;
    const input = rowAction.safeParse(req.params);
    const submission = input.success ? await getSubmission(deps.db, input.data.submissionId) : null;
    if (!input.success || !submission || submission.assignmentId !== found.assignment.id) {
      sendMessage(res, 404, 'Not found', 'There is no such submission in this assignment.');
      return;
    }
    const name = await studentName(deps, submission.userId);
    const { action } = input.data;
    if (action === 'delete') {
      const removal = await removeSubmission(deps.db, deps.services, submission.id);
      if (!removal.removed) return backToDashboard(res, found, `${name}'s paper was not deleted. ${removal.reason}`, 'error');
      // The gradebook cell belongs to the latest attempt not rejected (as for every grade post): it gets that
      // attempt's state (its score, or "pending"), or is emptied when there is none or it could not be checked.
      const [owner] = await attemptsOf(deps.db, found.assignment.id, submission.userId, 'counted');
      if (owner && owner.state !== 'failed') await resyncGrade(deps.db, deps.jobs, owner.id);
      else {
        const clear = { assignmentId: found.assignment.id, userId: submission.userId };
        await deps.jobs.send(QUEUES.grade, { clear }, { key: `clear:${clear.assignmentId}:${clear.userId}` });
      }
      deps.logger.info({ assignmentId: found.assignment.id, submissionId: submission.id }, 'Submission deleted by an instructor');
      return backToDashboard(res, found, `${name}'s attempt ${submission.attempt} is deleted, here and at the checking service; the student may submit again.`);
    }
    const next = action === 'resync-grade' ? RESYNC[submission.state] : RESEND[submission.state];
    if (!next) {
      const why = action === 'resync-grade' ? 'only a checked paper has a score to send' : 'only a paper still on its way to a result can be sent again';
      return backToDashboard(res, found, `Nothing was sent for ${name}: ${why}, and this one is ${submission.state}.`, 'error');
    }
    // An upload running now carries on by itself (and looks for its paper at the service before sending it again).
    if (next.queue === QUEUES.upload && (await deps.jobs.isRunning(next.queue, submission.id))) {
      return backToDashboard(res, found, `${name}'s paper is being sent to the checking service right now; nothing more was queued.`);
    }
    const queued = action === 'resync-grade' ? await resyncGrade(deps.db, deps.jobs, submission.id) : await deps.jobs.send(next.queue, { submissionId: submission.id }, { key: submission.id });
    backToDashboard(res, found, queued ? `${next.done} (${name}).` : `${name}'s paper is already queued; it goes in a moment.`);
  });

  return router;
}
