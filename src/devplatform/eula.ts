// The platform's EULA service for the Asset Processor, as Canvas has it (doc/api/document_processor.md, "EULA"): the
// tool posts a user's acceptance to {url}/user with a token of the eula/user scope and gets 201; DELETE on the same
// address forgets every acceptance (the tool's terms changed). Acceptance is per tool deployment, which this
// platform has one of.
import express from 'express';
import { z } from 'zod';
import type { MountConcern, PlatformContext } from './context.js';
import { SCOPES, requireScope } from './token.js';

const EULA_PATH = '/eula';
/** The address the eulaservice claim of an LtiEulaRequest launch names. */
export const eulaServiceUrl = (platform: PlatformContext) => `${platform.baseUrl}${EULA_PATH}`;

const acceptance = z.object({
  userId: z.string().min(1),
  accepted: z.boolean(),
  timestamp: z.string().datetime({ offset: true }),
});

export const mountEula: MountConcern = (router, platform) => {
  const { memory } = platform;
  router.post(
    `${EULA_PATH}/user`,
    requireScope(platform, SCOPES.eulaUser),
    express.json({ limit: '16kb' }),
    (req, res) => {
      const body = acceptance.safeParse(req.body);
      if (!body.success)
        return void res.status(400).json({ error: `invalid acceptance: ${body.error.issues[0]!.path.join('.')}` });
      memory.eulaAcceptances.set(body.data.userId, body.data);
      res.status(201).json(body.data);
    },
  );
  router.delete(`${EULA_PATH}/user`, requireScope(platform, SCOPES.eulaUser), (_req, res) => {
    memory.eulaAcceptances.clear();
    res.status(204).end();
  });
};
