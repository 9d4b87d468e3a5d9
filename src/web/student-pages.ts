// The student's side of an assignment: what to submit, the upload, the receipts, the live status, and the
// results as far as the assignment lets students see them, in the student's language (i18n/).
import type { Router } from 'express';
import { z } from 'zod';
import { bandOf } from '../assignments/settings.js';
import type { Assignment } from '../assignments/store.js';
import { reportName } from '../reports/kinds.js';
import { studentResults } from '../reports/visibility.js';
import { endedWithoutResult, isSettled, stateWord } from '../submissions/state.js';
import {
  attemptsOf,
  canSubmit,
  counted,
  receiptOf,
  type SubmitDecision,
  type Submission,
} from '../submissions/store.js';
import { dueDateFor, studentDueDate } from '../submissions/due-dates.js';
import { ownPageRefusal } from '../submissions/submit.js';
import { uploadLimits } from '../submissions/upload-limits.js';
import { assignmentFor } from '../assignments/access.js';
import type { Session } from '../lti/session.js';
import type { Words } from '../i18n/index.js';
import { isTimeZone, momentIn, SERVER_ZONE } from '../i18n/format.js';
import { requireSession, sessionOf } from './require-session.js';
import { pageAddress } from './page-address.js';
import { render, wordsOf } from './views.js';
import { toolRouter } from './routing.js';
import type { Tool } from './tool-context.js';

export function studentView(assignment: Assignment, submission: Submission, words: Words) {
  const results = studentResults(assignment, submission);
  return {
    ...receiptOf(submission),
    stateText: words.t(stateWord(submission.state)),
    final: isSettled(submission.state),
    failureReason: endedWithoutResult(submission.state) ? submission.failureReason : null,
    ...results,
    band: results.similarity === null ? null : bandOf(results.similarity, assignment.settings.similarityBands),
    // When the result arrived, once the student may see it.
    resultAt: results.similarity !== null && submission.scoredAt ? submission.scoredAt.toISOString() : null,
    replacedBy: submission.replacedByAttempt,
    reports: results.reports.map((report) => ({ ...report, label: words.t(reportName('student', report.kind)) })),
  };
}

type StudentView = ReturnType<typeof studentView>;

/**
 * The result card: the latest attempt (the newest comes first) with its state, score and band, its report, and
 * where it stands among the attempts the assignment allows; empty before the first attempt.
 */
function resultCard(
  assignment: Assignment,
  attempts: StudentView[],
  ltik: string,
  words: Words,
  ownDueAt: string | null,
): string {
  const latest = attempts[0];
  if (!latest) return '';
  const s = assignment.settings;
  return render(
    'student-result',
    {
      latest,
      ltik,
      limit: s.resubmission === 'none' ? 1 : s.maxAttempts,
      dueAt: dueDateFor(s, ownDueAt),
      resultsVisibleTo: s.resultsVisibleTo,
    },
    words,
  );
}

/** What the student's page shows: the assignment's limits, whether they may submit, and their attempts. */
export async function studentPage(tool: Tool, session: Session, assignment: Assignment, words: Words): Promise<string> {
  const attempts = await attemptsOf(tool.db, assignment.id, session.userId);
  const ownDueAt = await studentDueDate(tool.db, assignment.id, session.userId);
  // Papers of an assignment the LMS owns (the Asset Processor's) are handed in there: the page shows them, no form.
  const inTheLms = ownPageRefusal(assignment);
  const decision: SubmitDecision = inTheLms
    ? { allowed: false, why: 'in-the-lms', reason: inTheLms }
    : canSubmit(assignment.settings, counted(attempts), new Date(), ownDueAt);
  const limits = uploadLimits(assignment.settings);
  const typeNames = assignment.settings.allowedFileTypes.map((type) => words.t(`fileType.${type}`)).join(', ');
  const ltik = encodeURIComponent(session.ltik);
  const { t } = words;
  const views = attempts.map((a) => studentView(assignment, a, words));
  return render(
    'assignment-student',
    {
      assignment,
      ltik: session.ltik,
      userName: session.launch.name ?? t('student.you'),
      courseTitle: session.launch.context?.title ?? '',
      attempts: views,
      card: resultCard(assignment, views, session.ltik, words, ownDueAt),
      dueAt: dueDateFor(assignment.settings, ownDueAt),
      decision,
      refusal: decision.allowed ? null : words.say(decision.reason),
      limits: { ...limits, typeNames },
      scriptWords: {
        wrongType: t('student.script.wrongType', { types: typeNames }),
        tooLarge: t('student.script.tooLarge', { size: limits.maxMb }),
        empty: t('student.script.empty'),
        chooseFirst: t('student.script.chooseFirst'),
        uploadingFile: words.raw('student.script.uploadingFile'),
        arrived: words.raw('student.script.arrived'),
        soon: t('student.script.soon'),
        duplicate: words.raw('student.script.duplicate'),
        receipt: words.raw('student.script.receipt'),
        chooseAnother: t('student.script.chooseAnother'),
        failed: t('student.script.failed'),
        connectionLost: t('student.script.connectionLost'),
        bytes: words.raw('size.bytes'),
        kilobytes: words.raw('size.kilobytes'),
        megabytes: words.raw('size.megabytes'),
      },
      uploadUrl: pageAddress(`/assignments/${assignment.id}/submissions`, ltik),
      statusUrl: pageAddress(`/assignments/${assignment.id}/my-submissions`, ltik),
      receiptBase: `/assignments/${assignment.id}/submissions`,
    },
    words,
  );
}

/** The reader's zone as their browser named it (public/times.js adds it to the receipt's link); UTC without it. */
const readerZone = z.string().max(64).refine(isTimeZone);

export function receiptText(
  assignmentTitle: string,
  submission: Submission,
  words: Words,
  timeZone: string = SERVER_ZONE,
): string {
  const receipt = receiptOf(submission);
  const { t } = words;
  const fields: Array<[string, string]> = [
    [t('receipt.assignment'), assignmentTitle],
    [t('receipt.submissionId'), receipt.submissionId],
    [t('receipt.attempt'), words.number(receipt.attempt)],
    // On the reader's clock, their zone named, and the instant itself for whoever checks it.
    [t('receipt.receivedAt'), `${momentIn(words.locale, timeZone, receipt.receivedAt)} (${receipt.receivedAt})`],
    [t('receipt.file'), receipt.fileName],
    [t('receipt.size'), t('size.bytes', { count: receipt.size, size: words.number(receipt.size) })],
    ['SHA-256', receipt.sha256],
  ];
  const width = Math.max(...fields.map(([label]) => label.length)) + 2;
  return [
    t('receipt.title'),
    ...fields.map(([label, value]) => `${`${label}:`.padEnd(width)}${value}`),
    receipt.late ? t('receipt.late') : '',
    '',
  ].join('\n');
}

export function studentRoutes(tool: Tool): Router {
  const router = toolRouter();
  const session = requireSession(tool);

  // The attempts as data, with the result card and the list as the page shows them (the page's script puts them in place).
  router.get('/assignments/:id/my-submissions', session, async (req, res) => {
    const s = sessionOf(res);
    const assignment = await assignmentFor(tool.db, s, req.params.id);
    if (typeof assignment === 'number') return void res.status(assignment).json({ error: 'Not available.' });
    const words = wordsOf(res);
    const submissions = (await attemptsOf(tool.db, assignment.id, s.userId)).map((submission) =>
      studentView(assignment, submission, words),
    );
    const html = render(
      'student-attempts',
      { attempts: submissions, ltik: s.ltik, receiptBase: `/assignments/${assignment.id}/submissions` },
      words,
    );
    res.setHeader('Cache-Control', 'no-store');
    const ownDueAt = await studentDueDate(tool.db, assignment.id, s.userId);
    res.json({ submissions, html, card: resultCard(assignment, submissions, s.ltik, words, ownDueAt) });
  });

  router.get('/assignments/:id/submissions/:submissionId/receipt', session, async (req, res) => {
    const s = sessionOf(res);
    const assignment = await assignmentFor(tool.db, s, req.params.id);
    if (typeof assignment === 'number') return void res.status(assignment).type('text/plain').send('Not available.\n');
    const submission = (await attemptsOf(tool.db, assignment.id, s.userId)).find(
      (a) => a.id === req.params.submissionId,
    );
    if (!submission) return void res.status(404).type('text/plain').send('There is no such submission of yours.\n');
    res.setHeader('Content-Disposition', `attachment; filename="receipt-${submission.id}.txt"`);
    const zone = readerZone.safeParse(req.query.zone);
    res
      .type('text/plain')
      .send(receiptText(assignment.title, submission, wordsOf(res), zone.success ? zone.data : SERVER_ZONE));
  });

  return router;
}
