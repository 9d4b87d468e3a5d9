// The launches the tool takes, one line per message type: the type, the file that reads what is particular to it
// (the specification's section beside the rule), and whether the tool offers it only as the LMS's Asset Processor.
// The verifier (verify-launch.ts) reads a launch's particular claims through this table, once, into the Launch the
// session keeps (launch.ts); the web part answers each type through its own table (web/launches/index.ts). Adding a
// message type is a file here, a file there, and a line in each table; the type checker asks for the second line
// once the first is written (docs/architecture.md, "Adding a message type, ...").
import type { z } from 'zod';
import { DEEP_LINKING_MESSAGE, deepLinkingClaims } from './deep-linking.js';
import { EULA_MESSAGE, eulaClaims } from './eula.js';
import { PROCESSOR_SETTINGS_MESSAGE, processorSettingsClaims } from './processor-settings.js';
import { REPORT_REVIEW_MESSAGE, reportReviewClaims } from './report-review.js';
import { RESOURCE_LINK_MESSAGE, resourceLinkClaims } from './resource-link.js';
import { SUBMISSION_REVIEW_MESSAGE, submissionReviewClaims } from './submission-review.js';

export const LAUNCH_MESSAGES = {
  [RESOURCE_LINK_MESSAGE]: { claims: resourceLinkClaims, assetProcessorOnly: false },
  [DEEP_LINKING_MESSAGE]: { claims: deepLinkingClaims, assetProcessorOnly: false },
  [SUBMISSION_REVIEW_MESSAGE]: { claims: submissionReviewClaims, assetProcessorOnly: false },
  [REPORT_REVIEW_MESSAGE]: { claims: reportReviewClaims, assetProcessorOnly: true },
  [PROCESSOR_SETTINGS_MESSAGE]: { claims: processorSettingsClaims, assetProcessorOnly: true },
  [EULA_MESSAGE]: { claims: eulaClaims, assetProcessorOnly: true },
} as const;

export type LaunchMessageType = keyof typeof LAUNCH_MESSAGES;

/** What a launch of one message type carries that is particular to it, as read by its file. */
export type MessageOf<Type extends LaunchMessageType> = z.output<(typeof LAUNCH_MESSAGES)[Type]['claims']>;
/** Any launch's particular part; its `type` says which. */
export type LaunchMessage = { [Type in LaunchMessageType]: MessageOf<Type> }[LaunchMessageType];

/**
 * Each file's message names its own type: one copied from another file that kept the other's `type` would send its
 * launches to the other's line (web/launches/index.ts). The type checker names the table's key that does not.
 */
type NotItsOwnType = {
  [Type in LaunchMessageType]: [MessageOf<Type>['type']] extends [Type] ? never : Type;
}[LaunchMessageType];
export const EVERY_MESSAGE_NAMES_ITS_TYPE: [NotItsOwnType] extends [never] ? true : NotItsOwnType = true;

export function isLaunchMessageType(type: unknown): type is LaunchMessageType {
  return typeof type === 'string' && Object.hasOwn(LAUNCH_MESSAGES, type);
}

export {
  DEEP_LINKING_MESSAGE,
  EULA_MESSAGE,
  PROCESSOR_SETTINGS_MESSAGE,
  REPORT_REVIEW_MESSAGE,
  RESOURCE_LINK_MESSAGE,
  SUBMISSION_REVIEW_MESSAGE,
};
