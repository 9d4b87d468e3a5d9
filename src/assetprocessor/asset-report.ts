// What the LMS shows beside a submitted file: the asset reports of its current standing, one per report type. The
// report is computed from the submission's state when it is posted, so a late or repeated post never shows an older
// state. Fields and their rules: Asset Report Service, https://www.imsglobal.org/spec/lti-ap/v1p0 ; Canvas:
// app/controllers/lti/ims/asset_processor_controller.rb (result at most 16 characters, #RRGGBB, priority 0 to 5).
import { BAND_COLOUR, BAND_TEXT, bandOf, type Band } from '../assignments/settings.js';
import type { Assignment } from '../assignments/store.js';
import type { LmsAssetState, SubmissionState } from '../db/index.js';
import { wordsFor } from '../messages/index.js';
import { studentMayOpen } from '../reports/kinds.js';
import { stateWord } from '../submissions/state.js';
import { resultsVisible } from '../reports/visibility.js';
import { REPORT_TITLE, type AssetReportType } from './report-types.js';

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
 * The state's word, as every page of the tool says it (submissions/state.ts), leading the report's comment. In
 * English: the Asset Report Service carries no language, and the report is posted once for every reader.
 */
const said = (state: SubmissionState, sentence: string) => `${wordsFor('en').t(stateWord(state))}: ${sentence}`;

const percent = (value: number) => `${Number.isInteger(value) ? value : value.toFixed(1)}%`;

function scoreReport(
  assignment: Assignment,
  assetId: string,
  type: AssetReportType,
  score: number,
  visibleToOwner: boolean,
  measure: string,
): AssetReportBody {
  const band = bandOf(score, assignment.settings.similarityBands);
  return {
    assetId,
    type,
    processingProgress: 'Processed',
    title: REPORT_TITLE[type],
    priority: PRIORITY[band],
    visibleToOwner,
    result: percent(score),
    scoreGiven: score,
    scoreMaximum: 100,
    indicationColor: BAND_COLOUR[band],
    indicationAlt: `${measure} ${percent(score)}: ${BAND_TEXT[band]}.`,
    comment: said('scored', `${measure} ${percent(score)}.`),
  };
}

function failed(assetId: string, errorCode: string, comment: string, visibleToOwner: boolean): AssetReportBody {
  return {
    assetId,
    type: 'originality',
    processingProgress: 'Failed',
    title: REPORT_TITLE.originality,
    priority: FAILED_PRIORITY,
    visibleToOwner,
    errorCode,
    comment,
  };
}

function processing(assetId: string, comment: string, visibleToOwner: boolean): AssetReportBody {
  return {
    assetId,
    type: 'originality',
    processingProgress: 'Processing',
    title: REPORT_TITLE.originality,
    priority: 0,
    visibleToOwner,
    comment,
  };
}

/** The reports that show the asset's standing now: "Processing" from the moment the tool holds the notice. */
export function assetReports(assignment: Assignment, asset: AssetStanding, now = new Date()): AssetReportBody[] {
  const visible = resultsVisible(assignment, now);
  if (asset.state === 'failed')
    return [
      failed(
        asset.assetId,
        asset.errorCode ?? 'DOWNLOAD_FAILED',
        asset.errorComment ?? 'The file could not be checked.',
        visible,
      ),
    ];
  const paper = asset.submission;
  if (asset.state === 'received' || paper === null)
    return [
      processing(asset.assetId, said('received', 'the tool is fetching the file from the LMS to check it.'), visible),
    ];
  switch (paper.state) {
    case 'received':
    case 'uploading':
    case 'processing':
      return [processing(asset.assetId, said('processing', 'results usually come within 15 minutes.'), visible)];
    case 'rejected':
      return [
        failed(
          asset.assetId,
          'REFUSED_BY_SERVICE',
          said('rejected', paper.failureReason ?? 'The checking service refused the file.'),
          visible,
        ),
      ];
    case 'failed':
      return [
        failed(
          asset.assetId,
          'CHECK_FAILED',
          said('failed', paper.failureReason ?? 'The check of this file failed at the checking service.'),
          visible,
        ),
      ];
    case 'scored':
    case 'graded': {
      const reports = [
        scoreReport(assignment, asset.assetId, 'originality', paper.similarity ?? 0, visible, 'Similarity'),
      ];
      if (paper.aiScore !== null)
        reports.push(
          scoreReport(
            assignment,
            asset.assetId,
            'ai',
            paper.aiScore,
            visible && studentMayOpen(assignment.settings, 'ai'),
            'AI-written content estimated at',
          ),
        );
      return reports;
    }
  }
}
