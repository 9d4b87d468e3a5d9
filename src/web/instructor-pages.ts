// The instructor's side: the dashboard, CSV export, the settings form and the per-row actions. Forms post the
// ltik in their body; a request without it (a cross-site form, for one) has no session and is refused.
import express, { Router, type Request, type Response } from 'express';
import type { Provider } from 'ltijs';
import { z } from 'zod';
import { FILE_TYPES, MAX_EXCLUDED_PHRASES, SERVICE_MAX_FILE_MB, assignmentSettings, type AssignmentSettings } from '../assignments/settings.js';
import type { Assignment } from '../assignments/store.js';
import { QUEUES, type Jobs } from '../jobs/index.js';
import { RosterUnavailable, fetchRoster, type RosterMember } from '../lti/roster.js';
import type { Session } from '../lti/session.js';
import type { Logger } from '../logger.js';
import { classRows, eventsOf } from '../submissions/read-models.js';
import { getSubmission } from '../submissions/store.js';
import { assignmentFor } from './assignment-access.js';
import { dashboardRows, filterAndSort, histogramSvg, readDashboardQuery, toCsv } from './instructor-dashboard.js';
import { requireSession, sessionOf, type SessionDeps } from './session.js';
import { render, sendMessage } from './views.js';

export interface InstructorDeps extends SessionDeps {
  provider: Provider;
  jobs: Jobs;
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
const numberField = z.preprocess((value) => (value === '' || value === undefined ? undefined : Number(value)), z.number());

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
  dueAt: z.preprocess((value) => (value ? new Date(`${String(value)}Z`).toISOString() : null), z.string().nullable()).catch(null),
  resultsVisibleTo: z.string(),
  showAiScoreToStudents: checkbox,
  instructions: z.string().default(''),
});

function readSettings(body: unknown): { settings: AssignmentSettings } | { error: string } {
  const form = settingsForm.safeParse(body ?? {});
  if (!form.success) return { error: `The form could not be read (${form.error.issues[0]!.path.join('.')}).` };
  const f = form.data;
  const parsed = assignmentSettings.safeParse({
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
    dueAt: f.dueAt,
    resultsVisibleTo: f.resultsVisibleTo,
    showAiScoreToStudents: f.showAiScoreToStudents,
    instructions: f.instructions,
  });
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
    };
    return { error: messages[field.split('.')[0]!] ?? `Check the field "${field}": ${issue.message}` };
  }
  return { settings: parsed.data };
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
    res.send(render('instructor-dashboard', { assignment, rows, query, histogram: histogramSvg(all), rosterProblem: roster.problem, ltik: s.ltik, total: all.length, notice: req.query.notice ?? null }));
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

  router.get('/assignments/:id/settings', session, async (req, res) => {
    const found = await instructorAssignment(deps, req, res);
    if (!found) return;
    res.send(render('instructor-settings', { assignment: found.assignment, settings: found.assignment.settings, ltik: found.session.ltik, fileTypes: FILE_TYPES, error: null, saved: req.query.saved === '1' }));
  });

  router.post('/assignments/:id/settings', form, session, async (req, res) => {
    const found = await instructorAssignment(deps, req, res);
    if (!found) return;
    const result = readSettings(req.body);
    if ('error' in result) {
      res.status(400).send(render('instructor-settings', { assignment: found.assignment, settings: found.assignment.settings, ltik: found.session.ltik, fileTypes: FILE_TYPES, error: result.error, saved: false }));
      return;
    }
    await deps.db
      .updateTable('assignment')
      .set({ settings: JSON.stringify(result.settings), folder_state: 'pending', updated_at: new Date() })
      .where('id', '=', found.assignment.id)
      .execute();
    await deps.jobs.send(QUEUES.folder, { assignmentId: found.assignment.id }, { key: found.assignment.id });
    res.redirect(303, `/assignments/${found.assignment.id}/settings?saved=1&ltik=${encodeURIComponent(found.session.ltik)}`);
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
    const rows = await deps.db.selectFrom('submission').select('id').where('assignment_id', '=', found.assignment.id).where('state', 'in', ['scored', 'graded']).execute();
    for (const row of rows) await deps.jobs.send(QUEUES.grade, { submissionId: row.id }, { key: row.id });
    const notice = `${rows.length} score${rows.length === 1 ? '' : 's'} queued for the gradebook.`;
    res.redirect(303, `/assignments/${found.assignment.id}/dashboard?ltik=${encodeURIComponent(found.session.ltik)}&notice=${encodeURIComponent(notice)}`);
  });

  return router;
}
