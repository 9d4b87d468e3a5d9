// The deep-linking request (LTI Deep Linking 2.0, 4.4: https://www.imsglobal.org/spec/lti-dl/v2p0#deep-linking-request-message):
// an instructor adds the tool to their course, and the tool answers with the link to create. The message is verified
// by the one verifier (verify-launch.ts); this file holds only what is particular to it.
import { z } from 'zod';
import { CLAIM } from './claims.js';

export const DEEP_LINKING_MESSAGE = 'LtiDeepLinkingRequest';

/**
 * What the message must carry besides the core claims (4.4.1, the deep_linking_settings claim, required): where the
 * answer goes (deep_link_return_url, required) and the content item types the platform takes (accept_types,
 * required; the tool offers only ltiResourceLink, and says so when it is missing from them). The other settings
 * are the platform's to send or not: an LMS that leaves one out still gets its link.
 */
export const deepLinkingClaims = z.object({
  [CLAIM.deepLinkingSettings]: z.object({
    deep_link_return_url: z.string().url().max(4096),
    accept_types: z.array(z.string().max(200)).max(50),
  }),
});
