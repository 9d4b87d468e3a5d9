// Names and Role Provisioning Services 2.0 (https://www.imsglobal.org/spec/lti-nrps/v2p0): the launch's NRPS claim
// and the course's membership container, paged through Link rel="next"
// (https://www.imsglobal.org/spec/lti-nrps/v2p0#limit-query-parameter).
import type { MountConcern, PlatformContext } from './context.js';
import { SCOPES, requireScope } from './token.js';

const NRPS_CLAIM = 'https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice';

const membershipsPath = (platform: PlatformContext) => `/courses/${platform.course.id}/memberships`;
const membershipsUrl = (platform: PlatformContext) => `${platform.baseUrl}${membershipsPath(platform)}`;

export function nrpsClaim(platform: PlatformContext): Record<string, unknown> {
  return { [NRPS_CLAIM]: { context_memberships_url: membershipsUrl(platform), service_versions: ['2.0'] } };
}

export const mountNrps: MountConcern = (router, platform) => {
  const { course, memory } = platform;
  router.get(membershipsPath(platform), requireScope(platform, SCOPES.nrps), (req, res) => {
    const all = [...memory.people.values()].map((user) => ({
      user_id: user.id,
      name: user.name,
      email: user.email,
      roles: user.roles,
      status: 'Active',
    }));
    const limit = Number(req.query.limit ?? 0) || all.length;
    const page = Number(req.query.page ?? 0);
    if (all.length > (page + 1) * limit)
      res.setHeader('Link', `<${membershipsUrl(platform)}?limit=${limit}&page=${page + 1}>; rel="next"`);
    res.type('application/vnd.ims.lti-nrps.v2.membershipcontainer+json').send(
      JSON.stringify({
        id: membershipsUrl(platform),
        context: { id: course.id, label: course.label, title: course.title },
        members: all.slice(page * limit, (page + 1) * limit),
      }),
    );
  });
};
