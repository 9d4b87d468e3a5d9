// The instructor's side: the dashboard, CSV export, the settings form and the per-row actions (send again,
// resend the grade, delete). Forms post the ltik in their body; a request without it (a cross-site form, for one)
// has no session and is refused.
import express, { type Router, type Request, type Response } from 'express';
import { z } from 'zod';
import { folderStatus } from '../assignments/folder-status.js';
import { DOCUMENT_TYPES, FILE_TYPES, bandOf, type AssignmentSettings } from '../assignments/settings.js';
import { changeSettings } from '../assignments/settings-change.js';
import { defaultsInUse } from '../assignments/defaults-in-use.js';
import type { Assignment } from '../assignments/store.js';
import { gradebookChoices } from '../grades/gradebook-use.js';
import { postsGrades, queueGradeResync } from '../grades/resync.js';
import type { Session } from '../lti/session.js';
import { dashboardVisit } from '../submissions/instructor-visit.js';
import {
  arrivedSince,
  BANDS,
  DESCENDING_FIRST,
  FILTER_STATES,
  classOverview,
  classSummary,
  filterAndSort,
} from '../submissions/class-overview.js';
import { courseStudent, eventsOf, studentName } from '../submissions/read-models.js';
import { judgeLateness } from '../submissions/due-dates.js';
import { deleteAttempt } from '../submissions/remove.js';
import { sendGradeAgain, sendPaperAgain, type SendAgain } from '../submissions/resend.js';
import { attemptsOf, submissionOfAssignment, type Submission } from '../submissions/store.js';
import { assignmentFor } from '../assignments/access.js';
import { writeClassArchive } from '../reports/class-archive.js';
import { pageAddress } from './page-address.js';
import { downloadStem, histogramSvg, readDashboardQuery, toCsv, withReportLinks } from './instructor-dashboard.js';
import { reportsOffered } from '../reports/kinds.js';
import { requireSession, sessionOf } from './require-session.js';
import { ADVANCED_FIELDS, readSettings } from './settings-form.js';
import type { Words } from '../i18n/index.js';
import { render, sendMessage, wordsOf } from './views.js';
import { toolRouter } from './routing.js';
import type { Tool } from './tool-context.js';

type Found = { session: Session; assignment: Assignment; words: Words };

async function instructorAssignment(tool: Tool, req: Request, res: Response): Promise<Found | null> {
  const session = sessionOf(res);
  const { t } = wordsOf(res);
  if (session.launch.audience !== 'instructor') {
    sendMessage(res, 403, t('refused.notForYourRole'), t('refused.instructorsOnly'));
    return null;
  }
  const assignment = await assignmentFor(tool.db, session, req.params.id);
  if (typeof assignment === 'number') {
    sendMessage(res, assignment, t('refused.notAvailable'), t('refused.notInYourCourse'));
    return null;
  }
  return { session, assignment, words: wordsOf(res) };
}

const dashboardNotice = z.object({ notice: z.string().min(1).max(500), tone: z.enum(['ok', 'error']).default('ok') });
const submissionParams = z.object({ submissionId: z.string().uuid() });
const studentParams = z.object({ userId: z.string().uuid() });

/** The instructor's side of an assignment: its class. */
export function dashboardPath(assignmentId: string, ltik: string): string {
  return pageAddress(`/assignments/${assignmentId}/dashboard`, ltik);
}

/** Where an instructor reads one student's submissions of an assignment (submission review lands here). */
export function studentSubmissionsPath(assignmentId: string, userId: string, ltik: string): string {
  return pageAddress(`/assignments/${assignmentId}/students/${userId}`, ltik);
}
const rowAction = submissionParams.extend({ action: z.enum(['resend', 'resync-grade', 'delete']) });

function backToDashboard(res: Response, found: Found, notice: string, tone: 'ok' | 'error' = 'ok'): void {
  // The dashboard shows notices of up to 500 characters (a long name and a service's reason can make more).
  const shown = notice.length > 500 ? `${notice.slice(0, 499)}…` : notice;
  res.redirect(
    303,
    pageAddress(`/assignments/${found.assignment.id}/dashboard`, found.session.ltik, { notice: shown, tone }),
  );
}

/** Why nothing goes to the gradebook of this assignment. */
const noGradebookNotice = (assignment: Assignment) =>
  assignment.kind === 'asset-processor' ? 'dashboard.notice.reportsNotGrades' : 'dashboard.notice.noGradebook';

/** The notice after "send again" or "resend grade". */
function sentAgainNotice(
  { t }: Words,
  sent: SendAgain,
  action: 'resend' | 'resync-grade',
  name: string,
  submission: Submission,
  kind: Assignment['kind'],
): { notice: string; tone: 'ok' | 'error' } {
  switch (sent.outcome) {
    case 'nothing-to-send': {
      const key = action === 'resync-grade' ? 'dashboard.notice.noScoreToSend' : 'dashboard.notice.notOnItsWay';
      return { notice: t(key, { name, state: submission.state }), tone: 'error' };
    }
    case 'sending-now':
      return { notice: t('dashboard.notice.sendingNow', { name }), tone: 'ok' };
    case 'already-queued':
      return { notice: t('dashboard.notice.alreadyQueued', { name }), tone: 'ok' };
    case 'queued': {
      // The LMS's Asset Processor gets reports beside the file, not a score.
      const step = sent.step === 'grade' && kind === 'asset-processor' ? 'reports' : sent.step;
      return { notice: t(`dashboard.notice.queued.${step}`, { name }), tone: 'ok' };
    }
  }
}

/**
 * What the instructor's tabs need: the session's ltik, and whether the launch was an LMS administrator's, whose tabs
 * lead to the tool's administration too (the admin page takes their ltik for their own platform).
 */
const tabsOf = (session: Session) => ({ ltik: session.ltik, platformAdmin: session.launch.platformAdmin });

export function instructorRoutes(tool: Tool): Router {
  const router = toolRouter();
  const session = requireSession(tool);
  const form = express.urlencoded({ extended: false, limit: '64kb' });

  router.get('/assignments/:id/dashboard', session, async (req, res) => {
    const found = await instructorAssignment(tool, req, res);
    if (!found) return;
    const { session: s, assignment } = found;
    const query = readDashboardQuery(req.query);
    const overview = await classOverview(tool, assignment, s.launch);
    const notice = dashboardNotice.safeParse(req.query);
    const since = await dashboardVisit(tool.db, { assignmentId: assignment.id, userId: s.userId, ltik: s.ltik });
    const rows = withReportLinks(filterAndSort(overview.rows, query), assignment.settings).map((row) => ({
      ...row,
      arrivedSince: arrivedSince(row, since),
    }));
    res.send(
      render(
        'instructor-dashboard',
        {
          assignment,
          rows,
          // What arrived since the instructor's visit before this one (none on a first visit).
          since: since?.toISOString() ?? null,
          arrivedCount: overview.rows.filter((row) => arrivedSince(row, since)).length,
          anyReport: overview.rows.some((row) => row.hasReport),
          query,
          histogram: histogramSvg(overview.rows, found.words),
          summary: classSummary(assignment, overview.rows),
          states: FILTER_STATES,
          // Sending the scores again means something only once there is a score to send, and only where the
          // tool posts scores (not as the LMS's Asset Processor, nor where the LMS gave no gradebook service).
          anyScore: overview.rows.some((row) => row.similarity !== null),
          postsGrades: postsGrades(assignment),
          bands: BANDS,
          descendingFirst: DESCENDING_FIRST,
          rosterProblem: overview.rosterProblem,
          ...tabsOf(s),
          total: overview.rows.length,
          notice: notice.success ? notice.data : null,
          defaultsInUse: defaultsInUse(assignment)?.map((line) => found.words.say(line)) ?? null,
        },
        found.words,
      ),
    );
  });

  router.get('/assignments/:id/export.csv', session, async (req, res) => {
    const found = await instructorAssignment(tool, req, res);
    if (!found) return;
    const overview = await classOverview(tool, found.assignment, found.session.launch);
    const rows = filterAndSort(overview.rows, readDashboardQuery(req.query));
    res.setHeader(
      'Content-Disposition',
      `attachment; filename="${downloadStem(found.assignment.title)}-similarity.csv"`,
    );
    res.type('text/csv; charset=utf-8').send(toCsv(rows, found.words));
  });

  // The class's similarity reports in one ZIP, streamed report by report (reports/class-archive.ts), each paper's
  // under the rule a single report follows.
  router.get('/assignments/:id/reports.zip', session, async (req, res) => {
    const found = await instructorAssignment(tool, req, res);
    if (!found) return;
    const { assignment, session: s } = found;
    res.setHeader('Content-Disposition', `attachment; filename="${downloadStem(assignment.title)}-reports.zip"`);
    res.setHeader('Cache-Control', 'private, no-store');
    res.type('application/zip');
    try {
      const written = await writeClassArchive(
        tool,
        assignment,
        { audience: s.launch.audience, userId: s.userId },
        res,
        found.words.say,
      );
      tool.logger.info(
        { assignmentId: assignment.id, reports: written },
        "The class's reports downloaded as one archive",
      );
    } catch (error) {
      tool.logger.warn({ err: error, assignmentId: assignment.id }, "The class's report archive was cut off");
      res.destroy();
    }
  });

  const settingsPage = async (
    found: Found,
    view: { error: string | null; field?: string; saved: boolean; settings?: AssignmentSettings },
  ) => {
    // What each gradebook choice means in this LMS, and what saving a change of it would post now.
    const choices = Object.fromEntries(
      (await gradebookChoices(tool.db, found.assignment)).map(({ choice, consequence, preview }) => [
        choice,
        {
          consequence: consequence ? found.words.say(consequence) : null,
          preview: found.words.say(preview),
          current: choice === found.assignment.settings.gradeColumn,
        },
      ]),
    );
    return render(
      'instructor-settings',
      {
        assignment: found.assignment,
        choices,
        postsGrades: postsGrades(found.assignment),
        settings: view.settings ?? found.assignment.settings,
        ...tabsOf(found.session),
        fileTypes: FILE_TYPES,
        documentTypes: DOCUMENT_TYPES,
        canCreateColumns: found.assignment.lineItemsUrl !== null,
        error: view.error,
        // The comparison options stay folded under "Advanced" unless the error to correct is among them.
        advancedOpen: view.field !== undefined && ADVANCED_FIELDS.has(view.field),
        saved: view.saved,
        folder: folderStatus(found.assignment, view.saved),
        defaultsInUse: defaultsInUse(found.assignment)?.map((line) => found.words.say(line)) ?? null,
        statusUrl: pageAddress(`/assignments/${found.assignment.id}/settings/status`, found.session.ltik),
      },
      found.words,
    );
  };

  router.get('/assignments/:id/settings', session, async (req, res) => {
    const found = await instructorAssignment(tool, req, res);
    if (!found) return;
    res.send(await settingsPage(found, { error: null, saved: req.query.saved === '1' }));
  });

  router.post('/assignments/:id/settings', form, session, async (req, res) => {
    const found = await instructorAssignment(tool, req, res);
    if (!found) return;
    const result = readSettings(req.body, found.words);
    if ('error' in result) {
      res.status(400).send(
        await settingsPage(found, {
          error: result.error,
          field: result.field,
          saved: false,
          ...(result.entered ? { settings: result.entered } : {}),
        }),
      );
      return;
    }
    await changeSettings(tool, found.assignment, result.settings);
    if (found.assignment.settings.dueAt !== result.settings.dueAt) await judgeLateness(tool.db, found.assignment.id);
    await tool.sink.settingsChanged(found.assignment.id, found.assignment.settings, result.settings);
    res.redirect(303, pageAddress(`/assignments/${found.assignment.id}/settings`, found.session.ltik, { saved: '1' }));
  });

  // Whether the checking service has the settings yet: the settings page asks until it knows.
  router.get('/assignments/:id/settings/status', session, async (req, res) => {
    const found = await instructorAssignment(tool, req, res);
    if (!found) return;
    res.setHeader('Cache-Control', 'no-store');
    res.json(folderStatus(found.assignment, true));
  });

  // Every state change of one submission, so that "stuck in pending" always has an answer.
  router.get('/assignments/:id/submissions/:submissionId/history', session, async (req, res) => {
    const found = await instructorAssignment(tool, req, res);
    if (!found) return;
    const input = submissionParams.safeParse(req.params);
    const submission = input.success
      ? await submissionOfAssignment(tool.db, found.assignment.id, input.data.submissionId)
      : null;
    if (!submission) {
      sendMessage(res, 404, found.words.t('refused.notFound'), found.words.t('refused.noSuchSubmission'));
      return;
    }
    res.send(
      render(
        'submission-history',
        {
          assignment: found.assignment,
          submission,
          events: await eventsOf(tool.db, submission.id),
          ...tabsOf(found.session),
        },
        found.words,
      ),
    );
  });

  // One student's attempts, scores and reports: where the LMS's gradebook opens a student's submission (submission review).
  router.get('/assignments/:id/students/:userId', session, async (req, res) => {
    const found = await instructorAssignment(tool, req, res);
    if (!found) return;
    const input = studentParams.safeParse(req.params);
    // Only a student of this assignment's course: another course's student is no one here (404), as an unknown id.
    const student = input.success ? await courseStudent(tool.db, found.assignment, { id: input.data.userId }) : null;
    if (!student) {
      sendMessage(res, 404, found.words.t('refused.notFound'), found.words.t('review.noSuchStudent'));
      return;
    }
    const { settings } = found.assignment;
    const attempts = (await attemptsOf(tool.db, found.assignment.id, student.id)).map((attempt) => ({
      ...attempt,
      band: attempt.similarity === null ? null : bandOf(attempt.similarity, settings.similarityBands),
      reports: attempt.reportKey === null ? [] : reportsOffered('instructor', settings, attempt),
    }));
    res.send(
      render(
        'student-submissions',
        { assignment: found.assignment, student, attempts, ...tabsOf(found.session) },
        found.words,
      ),
    );
  });

  router.post('/assignments/:id/resync-grades', form, session, async (req, res) => {
    const found = await instructorAssignment(tool, req, res);
    if (!found) return;
    if (!postsGrades(found.assignment))
      return backToDashboard(res, found, found.words.t(noGradebookNotice(found.assignment)), 'error');
    const queued = await queueGradeResync(tool.db, tool.jobs, { assignmentId: found.assignment.id });
    backToDashboard(res, found, found.words.t('dashboard.notice.scoresQueued', { count: queued }));
  });

  router.post('/assignments/:id/submissions/:submissionId/:action', form, session, async (req, res) => {
    const found = await instructorAssignment(tool, req, res);
    if (!found) return;
    const input = rowAction.safeParse(req.params);
    const submission = input.success
      ? await submissionOfAssignment(tool.db, found.assignment.id, input.data.submissionId)
      : null;
    if (!input.success || !submission) {
      sendMessage(res, 404, found.words.t('refused.notFound'), found.words.t('refused.noSuchSubmission'));
      return;
    }
    const name = await studentName(tool.db, submission.userId);
    const { action } = input.data;
    if (action === 'delete') {
      const removal = await deleteAttempt(tool, submission);
      if (!removal.removed)
        return backToDashboard(
          res,
          found,
          found.words.t('dashboard.notice.notDeleted', { name, reason: removal.reason }),
          'error',
        );
      tool.logger.info(
        { assignmentId: found.assignment.id, submissionId: submission.id },
        'Submission deleted by an instructor',
      );
      return backToDashboard(
        res,
        found,
        found.words.t('dashboard.notice.deleted', { name, attempt: submission.attempt }),
      );
    }
    // An Asset Processor's "send again" of a checked paper sends its reports; elsewhere it is the grade's, where
    // there is a gradebook to send it to.
    if (action === 'resync-grade' && found.assignment.kind === 'gradebook' && !postsGrades(found.assignment))
      return backToDashboard(res, found, found.words.t(noGradebookNotice(found.assignment)), 'error');
    const sent =
      action === 'resync-grade' ? await sendGradeAgain(tool, submission) : await sendPaperAgain(tool.jobs, submission);
    const { notice, tone } = sentAgainNotice(found.words, sent, action, name, submission, found.assignment.kind);
    backToDashboard(res, found, notice, tone);
  });

  return router;
}
