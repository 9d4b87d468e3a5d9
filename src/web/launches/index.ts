// The one table that answers launches, one line per message type: each type's file here says what its launch opens
// (the claims it reads are lti/messages/'s, named by the table there). The launch's chain (lti/launch-flow.ts)
// verifies every launch and starts its session; the launch route (launch-route.ts) hands it to its line. Adding a
// message type is a file in lti/messages/, a file here, and a line in each table.
import {
  DEEP_LINKING_MESSAGE,
  EULA_MESSAGE,
  PROCESSOR_SETTINGS_MESSAGE,
  REPORT_REVIEW_MESSAGE,
  RESOURCE_LINK_MESSAGE,
  SUBMISSION_REVIEW_MESSAGE,
  type LaunchMessageType,
} from '../../lti/messages/index.js';
import type { LaunchAnswer } from './answer.js';
import { deepLinkingLaunch } from './deep-linking.js';
import { eulaLaunch } from './eula.js';
import { processorSettingsLaunch } from './processor-settings.js';
import { reportReviewLaunch } from './report-review.js';
import { resourceLinkLaunch } from './resource-link.js';
import { submissionReviewLaunch } from './submission-review.js';

export const LAUNCH_ANSWERS: { [Type in LaunchMessageType]: LaunchAnswer<Type> } = {
  [RESOURCE_LINK_MESSAGE]: resourceLinkLaunch,
  [DEEP_LINKING_MESSAGE]: deepLinkingLaunch,
  [SUBMISSION_REVIEW_MESSAGE]: submissionReviewLaunch,
  [REPORT_REVIEW_MESSAGE]: reportReviewLaunch,
  [PROCESSOR_SETTINGS_MESSAGE]: processorSettingsLaunch,
  [EULA_MESSAGE]: eulaLaunch,
};

/**
 * The line for a launch's message type. TypeScript cannot follow a launch's type from the table's key to its line, so
 * the one cast is here, where the key is the launch's own type.
 */
export function answerOf(type: LaunchMessageType): LaunchAnswer<LaunchMessageType> {
  return LAUNCH_ANSWERS[type] as unknown as LaunchAnswer<LaunchMessageType>;
}
