// The Asset Processor's EULA launch (LtiEulaRequest; Canvas: doc/api/document_processor.md, "EULA"; lti-notes 2.6):
// the LMS shows the tool's terms, which each user accepts once per deployment. The message is verified by the one
// verifier (verify-launch.ts); this file holds only what is particular to it, and the table of message types names
// it (index.ts). Telling the LMS of an acceptance is eula-service.ts's.
import { z } from 'zod';
import { CLAIM } from '../claims.js';

export const EULA_MESSAGE = 'LtiEulaRequest';

/** The service's claim in the EULA launch; what the tool needs of it is its address. */
export const eulaServiceClaim = z.object({ url: z.string().url().max(4096), scope: z.array(z.string()).optional() });

/** What the message must carry besides the core claims: the EULA service the acceptance is told to. */
export const eulaClaims = z
  .object({ [CLAIM.eulaService]: eulaServiceClaim })
  .transform((claims) => ({ type: EULA_MESSAGE, serviceUrl: claims[CLAIM.eulaService].url }) as const);
