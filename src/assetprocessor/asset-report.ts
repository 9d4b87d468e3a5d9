// What the LMS shows beside a submitted file: the asset reports of its current standing, one per report type. The
// report is computed from the submission's state when it is posted, so a late or repeated post never shows an older
// state. Fields and their rules: Asset Report Service, https://www.imsglobal.org/spec/lti-ap/v1p0 ; Canvas:
// app/controllers/lti/ims/asset_processor_controller.rb (result at most 16 characters, #RRGGBB, priority 0 to 5).
import { lmsLanguage } from '../assignments/language.js';
import { BAND_COLOUR, bandOf, type Band } from '../assignments/settings.js';
import type { Assignment } from '../assignments/store.js';
import type { LmsAssetState, SubmissionState } from '../db/index.js';
import { wordsFor, type Words } from '../i18n/index.js';
import { studentMayOpen } from '../reports/kinds.js';
import { stateWord } from '../submissions/state.js';
import { resultsVisible } from '../reports/visibility.js';
import type { AssetReportType } from './report-types.js';

export type ProcessingProgress = 'Processed' | 'Processing' | 'PendingManual' | 'Failed' | 'NotProcessed' | 'NotReady';

/** A report as posted, less its timestamp (set when it is sent). */
export interface AssetReportBody {
  assetId: string;
  type: AssetReportType;
  processingProgress: ProcessingProgress;
  title: string;
  priority: number;
  visibleToOwner: boolean;
  result?: string;
  /**
   * The earlier draft's score fields, which Blackboard's reference tool posts (BBDN-LTI-Tool-Provider-Node
   * server/src/app/processor.js) where Canvas reads `result`; Canvas keeps unknown fields as extensions, so both go.
   */
  scoreGiven?: number;
  scoreMaximum?: number;
  indicationColor?: string;
  indicationAlt?: string;
  comment?: string;
  errorCode?: string;
}

/** An asset and, once admitted, the submission that stands for it. */
export interface AssetStanding {
  assetId: string;
  state: LmsAssetState;
  errorCode: string | null;
  errorComment: string | null;
  submission: {
    state: SubmissionState;
    similarity: number | null;
    aiScore: number | null;
    failureReason: string | null;
  } | null;
}

/** How urgently an instructor should look, by band: 0 asks for nothing (Canvas flags any report above 0). */
const PRIORITY: Record<Band, number> = { green: 0, yellow: 1, orange: 3, red: 5 };
/** A file that could not be checked needs the instructor's eye, not as urgently as a very high similarity. */
const FAILED_PRIORITY = 2;

/**
 * The report's words: the Asset Report Service carries no language, and a report is posted once for every reader, so
 * it is written in the language of the assignment's instructors (assignments/language.ts), English until one states
 * theirs. What the LMS or the checking service said of a failure is shown as they said it.
 */
interface ReportWords extends Words {
  /** The state's word, as every page of the tool says it (submissions/state.ts), leading a sentence. */
  said(state: SubmissionState, sentence: string): string;
}

function reportWords(assignment: Assignment): ReportWords {
  const words = wordsFor(lmsLanguage(assignment.lmsLanguage));
  return { ...words, said: (state, sentence) => `${words.t(stateWord(state))}: ${sentence}` };
}

/** A percent as the result field carries it: at most 16 characters (Canvas), the same in every language. */
const percent = (value: number) => `${Number.isInteger(value) ? value : value.toFixed(1)}%`;

function scoreReport(
  assignment: Assignment,
  words: ReportWords,
  score: { assetId: string; type: AssetReportType; value: number; visibleToOwner: boolean },
): AssetReportBody {
  const { t } = words;
  const band = bandOf(score.value, assignment.settings.similarityBands);
  const measure = t(score.type === 'ai' ? 'assetReport.ai' : 'assetReport.similarity', {
    percent: percent(score.value),
  });
  return {
    assetId: score.assetId,
    type: score.type,
    processingProgress: 'Processed',
    title: t(score.type === 'ai' ? 'assetReport.title.ai' : 'assetReport.title.originality'),
    priority: PRIORITY[band],
    visibleToOwner: score.visibleToOwner,
    result: percent(score.value),
    scoreGiven: score.value,
    scoreMaximum: 100,
    indicationColor: BAND_COLOUR[band],
    indicationAlt: `${measure}: ${t(`assetReport.band.${band}`)}.`,
    comment: words.said('scored', `${measure}.`),
  };
}

function failed(
  words: ReportWords,
  assetId: string,
  errorCode: string,
  comment: string,
  visibleToOwner: boolean,
): AssetReportBody {
  return {
    assetId,
    type: 'originality',
    processingProgress: 'Failed',
    title: words.t('assetReport.title.originality'),
    priority: FAILED_PRIORITY,
    visibleToOwner,
    errorCode,
    comment,
  };
}

function processing(words: ReportWords, assetId: string, comment: string, visibleToOwner: boolean): AssetReportBody {
  return {
    assetId,
    type: 'originality',
    processingProgress: 'Processing',
    title: words.t('assetReport.title.originality'),
    priority: 0,
    visibleToOwner,
    comment,
  };
}

/** The reports that show the asset's standing now: "Processing" from the moment the tool holds the notice. */
export function assetReports(assignment: Assignment, asset: AssetStanding, now = new Date()): AssetReportBody[] {
  const visible = resultsVisible(assignment, now);
  const words = reportWords(assignment);
  const { t, said } = words;
  const { assetId } = asset;
  if (asset.state === 'failed')
    return [
      failed(
        words,
        assetId,
        asset.errorCode ?? 'DOWNLOAD_FAILED',
        asset.errorComment ?? t('assetReport.notChecked'),
        visible,
      ),
    ];
  const paper = asset.submission;
  if (asset.state === 'received' || paper === null)
    return [processing(words, assetId, said('received', t('assetReport.fetching')), visible)];
  switch (paper.state) {
    case 'received':
    case 'uploading':
    case 'processing':
      return [processing(words, assetId, said('processing', t('assetReport.waiting')), visible)];
    case 'rejected':
      return [
        failed(
          words,
          assetId,
          'REFUSED_BY_SERVICE',
          said('rejected', paper.failureReason ?? t('assetReport.refused')),
          visible,
        ),
      ];
    case 'failed':
      return [
        failed(
          words,
          assetId,
          'CHECK_FAILED',
          said('failed', paper.failureReason ?? t('assetReport.checkFailed')),
          visible,
        ),
      ];
    case 'scored':
    case 'graded': {
      const reports = [
        scoreReport(assignment, words, {
          assetId,
          type: 'originality',
          value: paper.similarity ?? 0,
          visibleToOwner: visible,
        }),
      ];
      if (paper.aiScore !== null)
        reports.push(
          scoreReport(assignment, words, {
            assetId,
            type: 'ai',
            value: paper.aiScore,
            visibleToOwner: visible && studentMayOpen(assignment.settings, 'ai'),
          }),
        );
      return reports;
    }
  }
}
