// GET /lti/register: the LMS opens it for LTI Dynamic Registration.
import { Router } from 'express';
import { z } from 'zod';
import { RegistrationFailed, registerDynamically, type ToolDescription } from '../lti/dynamic-registration.js';
import type { RegistrationStore } from '../lti/registrations.js';
import type { Logger } from '../logger.js';
import { render, sendMessage } from './views.js';

const registrationQuery = z.object({
  openid_configuration: z.string().url().max(2048),
  registration_token: z.string().min(1).max(8192).optional(),
});

export function registrationRoutes(deps: { store: RegistrationStore; tool: Omit<ToolDescription, 'requireApproval'>; mode: 'open' | 'approve' | 'off'; logger: Logger }): Router {
  const router = Router();
  router.get('/register', async (req, res) => {
    const fail = (status: number, message: string) =>
      sendMessage(res, status, 'Registration failed', message);
    if (deps.mode === 'off') return fail(403, 'Dynamic registration is switched off for this tool. Ask its administrator to register your LMS by hand.');
    const query = registrationQuery.safeParse(req.query);
    if (!query.success) return fail(400, 'Open this address from your LMS\'s "register a tool by URL" page: it needs the openid_configuration the LMS adds.');
    try {
      const registration = await registerDynamically(deps.store, { ...deps.tool, requireApproval: deps.mode === 'approve' }, {
        openidConfiguration: query.data.openid_configuration,
        ...(query.data.registration_token ? { registrationToken: query.data.registration_token } : {}),
      });
      deps.logger.info({ issuer: registration.issuer, clientId: registration.clientId, active: registration.active }, 'Platform registered dynamically');
      res.send(render('registration-done', { registration }));
    } catch (error) {
      if (error instanceof RegistrationFailed) {
        deps.logger.warn({ reason: error.message }, 'Dynamic registration failed');
        return fail(502, error.message);
      }
      throw error;
    }
  });
  return router;
}
