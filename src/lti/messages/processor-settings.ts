// The Asset Processor's settings launch (LtiAssetProcessorSettingsRequest,
// https://www.imsglobal.org/spec/lti-ap/v1p0 "Asset Processor settings"; Canvas: doc/api/document_processor.md,
// step 4): an instructor chose "Modify" on the tool in the LMS assignment's editor. The message is verified by the one
// verifier (verify-launch.ts); this file holds only what is particular to it, and the table of message types names it
// (index.ts). What the tool then opens is src/assetprocessor/settings-launch.ts's.
import { z } from 'zod';
import { CLAIM, reportAddressOf } from '../claims.js';

export const PROCESSOR_SETTINGS_MESSAGE = 'LtiAssetProcessorSettingsRequest';

/**
 * What the message must carry besides the core claims: the LMS's assignment (activity). Its custom parameters are
 * the content item's (a processor attached to a draft names its assignment there), and Blackboard names the Asset
 * Report Service's address here too.
 */
export const processorSettingsClaims = z
  .looseObject({
    [CLAIM.activity]: z.object({
      id: z.string().min(1).max(255),
      title: z.string().max(1000).optional().catch(undefined),
    }),
    [CLAIM.custom]: z.record(z.string(), z.unknown()).optional(),
  })
  .transform(
    (claims) =>
      ({
        type: PROCESSOR_SETTINGS_MESSAGE,
        activityId: claims[CLAIM.activity].id,
        activityTitle: claims[CLAIM.activity].title,
        custom: claims[CLAIM.custom] ?? {},
        reportAddress: reportAddressOf(claims),
      }) as const,
  );
