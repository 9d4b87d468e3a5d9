// GET /lti/register: the LMS opens it for LTI Dynamic Registration, in a panel (an iframe) of its own admin page
// (Moodle, Canvas) or a window. Every answer ends the same way: the page posts org.imsglobal.lti.close to the
// window that opened it, at once on success, from its Close button on failure.
// https://www.imsglobal.org/spec/lti-dr/v1p0#step-4-registration-completed-and-activation
import { type Router, type Request, type Response } from 'express';
import { z } from 'zod';
import { RegistrationFailed, registerDynamically, type ToolDescription } from '../lti/dynamic-registration.js';
import { clientAddressOf } from './client-address.js';
import { allowFramingBy, allowFramingByAnyone } from './framing.js';
import { render, wordsOf } from './views.js';
import { toolRouter } from './routing.js';
import type { Tool } from './tool-context.js';

const registrationQuery = z.object({
  openid_configuration: z.string().url().max(2048),
  registration_token: z.string().min(1).max(8192).optional(),
});

/**
 * Registration attempts one source address may start in a window (REGISTRATIONS_PER_ADDRESS, default 5). Each
 * makes the tool fetch a configuration and post to the LMS; more than a few in ten minutes is no administrator at
 * work. Kept in the process's memory (a restart forgets it; several web processes each count their own), which
 * bounds a flood without a table of its own. Behind a proxy every request comes from the proxy's address: the limit
 * then holds for all callers together.
 */
export const REGISTRATION_WINDOW_MS = 10 * 60_000;
/** Addresses remembered at most, so that the memory of the limit stays bounded too. */
const MAX_TRACKED_ADDRESSES = 10_000;

function rateLimiter(limit: number, windowMs: number) {
  const attempts = new Map<string, number[]>();
  return (address: string): boolean => {
    const now = Date.now();
    const recent = (attempts.get(address) ?? []).filter((at) => now - at < windowMs);
    if (recent.length >= limit) {
      attempts.set(address, recent);
      return false;
    }
    if (!attempts.has(address) && attempts.size >= MAX_TRACKED_ADDRESSES) {
      for (const [key, times] of attempts) if (times.every((at) => now - at >= windowMs)) attempts.delete(key);
      if (attempts.size >= MAX_TRACKED_ADDRESSES) return false;
    }
    attempts.set(address, [...recent, now]);
    return true;
  };
}

/** How the tool describes itself to an LMS that registers it. */
const DESCRIPTION = 'Similarity and AI-content checks for submitted papers';

export function registrationRoutes(tool: Tool): Router {
  const { settings, logger } = tool;
  const description: Omit<ToolDescription, 'requireApproval'> = {
    name: settings.toolName,
    description: DESCRIPTION,
    urls: tool.urls,
    assetProcessor: settings.assetProcessor,
    assetProcessorEula: settings.assetProcessorEula !== null,
  };
  const mode = settings.dynamicRegistration;
  const router = toolRouter();
  const allowed = rateLimiter(settings.registrationsPerAddress, REGISTRATION_WINDOW_MS);
  const clientAddress = clientAddressOf(settings.trustedProxies);

  /** The failure page: one sentence and a Close button. Framed by the LMS once known, else by anyone (it shows nothing else). */
  const fail = (res: Response, status: number, message: string, lmsOrigins: string[] = []) => {
    if (lmsOrigins.length > 0) allowFramingBy(res, lmsOrigins);
    else allowFramingByAnyone(res);
    res.status(status).send(render('registration-failed', { message }, wordsOf(res)));
  };

  router.get('/register', async (req: Request, res: Response) => {
    if (mode === 'off')
      return fail(
        res,
        403,
        'Dynamic registration is switched off for this tool. Ask its administrator to register your LMS by hand.',
      );
    const query = registrationQuery.safeParse(req.query);
    if (!query.success)
      return fail(
        res,
        400,
        'Open this address from your LMS\'s "register a tool by URL" page: it needs the openid_configuration the LMS adds.',
      );
    const address = clientAddress(req);
    if (!allowed(address)) {
      logger.warn({ address }, 'Dynamic registration refused: too many attempts from one address');
      res.setHeader('Retry-After', String(Math.ceil(REGISTRATION_WINDOW_MS / 1000)));
      return fail(
        res,
        429,
        'Too many registrations were started from your address in the last few minutes. Wait ten minutes, then start the registration again from your LMS.',
      );
    }
    try {
      const { registration, productFamily, lmsOrigins } = await registerDynamically(
        tool,
        { ...description, requireApproval: mode === 'approve' },
        {
          openidConfiguration: query.data.openid_configuration,
          ...(query.data.registration_token ? { registrationToken: query.data.registration_token } : {}),
        },
        { production: settings.production },
      );
      logger.info(
        {
          issuer: registration.issuer,
          clientId: registration.clientId,
          active: registration.active,
          configurationHost: new URL(query.data.openid_configuration).host,
        },
        'Platform registered dynamically',
      );
      allowFramingBy(res, lmsOrigins);
      res.send(
        render(
          'registration-done',
          { registration, productFamily, adminUrl: `${settings.publicUrl}/admin` },
          wordsOf(res),
        ),
      );
    } catch (error) {
      if (error instanceof RegistrationFailed) {
        logger.warn({ reason: error.message, detail: error.detail }, 'Dynamic registration failed');
        return fail(res, error.status, error.message, error.lmsOrigins);
      }
      // Still a page the panel can show, with its Close button, rather than the tool's general error page.
      logger.error({ err: error }, "Dynamic registration failed on the tool's side");
      return fail(
        res,
        500,
        'The tool could not finish the registration because of a problem on its side. Start the registration again from your LMS in a moment.',
      );
    }
  });
  return router;
}
