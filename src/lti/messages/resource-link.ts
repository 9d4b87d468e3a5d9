// The resource-link launch (LTI Core 1.3, 5.3: https://www.imsglobal.org/spec/lti/v1p3/#resource-link-launch-request-message):
// a person opens the tool from a link in their course. The message is verified by the one verifier
// (verify-launch.ts); this file holds only what is particular to it, and the table of message types names it
// (index.ts).
import { z } from 'zod';
import { CLAIM } from '../claims.js';

export const RESOURCE_LINK_MESSAGE = 'LtiResourceLinkRequest';

/**
 * What the message must carry besides the core claims: the target link URI (5.3.4, required) and the resource link
 * with its id (5.3.5, required; at most 255 characters). ltijs 5.9.9 refused a launch without either
 * (dist/Utils/Auth.js, claimValidation), and so does the tool. The resource link itself is read with every
 * message's (launch.ts), since submission review names one too.
 */
export const resourceLinkClaims = z
  .object({
    [CLAIM.targetLinkUri]: z.string().min(1).max(4096),
    [CLAIM.resourceLink]: z.object({ id: z.string().min(1).max(255) }),
  })
  .transform((claims) => ({ type: RESOURCE_LINK_MESSAGE, targetLinkUri: claims[CLAIM.targetLinkUri] }) as const);
