// A report as the service makes it, streamed through the tool (the person never talks to the service): the
// paper's folder and its account are the tool's to know, and the service's failures become a sentence.
import { failureOf } from '../checker/index.js';
import type { Kysely } from 'kysely';
import { getAssignment } from '../assignments/store.js';
import type { ServiceConnections } from '../accounts/connections.js';
import type { DatabaseSchema } from '../db/index.js';
import { getSubmission } from '../submissions/store.js';
import { REPORTS, type ReportKind } from './kinds.js';
import { NO_SUCH_REPORT, type ReportRefusal } from './visibility.js';

export interface ReportDeps {
  db: Kysely<DatabaseSchema>;
  services: Pick<ServiceConnections, 'forAssignment'>;
  logger: { warn(details: object, message: string): void };
}

export interface ReportFile {
  stream: NodeJS.ReadableStream;
  contentLength: number | null;
  /** A name for the download: the kind and the student's file label, without anything a header cannot carry. */
  fileName: string;
}

function reportFileName(kind: ReportKind, fileLabel: string): string {
  const stem = fileLabel
    .replace(/\.[^.]+$/, '')
    .replace(/[^A-Za-z0-9 _-]/g, '')
    .trim()
    .replace(/\s+/g, '-')
    .slice(0, 60);
  return `${kind}-report-${stem || 'paper'}.pdf`;
}

/** The report of a submission's paper from the service, or why there is none. */
export async function reportFromService(
  deps: ReportDeps,
  submissionId: string,
  kind: ReportKind,
): Promise<ReportFile | ReportRefusal> {
  const submission = await getSubmission(deps.db, submissionId);
  const assignment = submission ? await getAssignment(deps.db, submission.assignmentId) : null;
  if (!submission || submission.paperId === null || !assignment?.folderId) return NO_SUCH_REPORT;
  if (submission.replacedAt !== null) return { status: 404, sentence: { key: 'report.replaced' } };
  try {
    const service = await deps.services.forAssignment(submission.assignmentId);
    const report = await service.report(kind, {
      folderId: assignment.folderId,
      paperId: submission.paperId,
      reportKey: submission.reportKey,
    });
    return {
      stream: report.stream,
      contentLength: report.contentLength,
      fileName: reportFileName(kind, submission.fileLabel),
    };
  } catch (error) {
    const failure = failureOf(error);
    deps.logger.warn({ submissionId, kind, reason: failure.message }, 'Report download failed');
    const optional = REPORTS[kind].optional;
    return optional
      ? { status: 404, sentence: optional.missing }
      : { status: 502, sentence: { key: 'report.serviceFailed', params: { reason: failure.message } } };
  }
}
