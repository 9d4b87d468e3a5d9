// The claims of a resource-link launch from a dev platform, for tests that sign their own (forged, altered,
// incomplete) id_tokens.
import { ROLES, type DevPlatform } from '../../src/devplatform/index.js';

const CLAIM = 'https://purl.imsglobal.org/spec/lti/claim';

export function launchClaims(platform: DevPlatform, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const registration = platform.registration();
  return {
    iss: registration.issuer,
    aud: registration.clientId,
    sub: 'intruder-1',
    nonce: `n-${Math.random()}`,
    [`${CLAIM}/message_type`]: 'LtiResourceLinkRequest',
    [`${CLAIM}/version`]: '1.3.0',
    [`${CLAIM}/deployment_id`]: registration.deploymentId,
    [`${CLAIM}/target_link_uri`]: 'http://x',
    [`${CLAIM}/resource_link`]: { id: 'essay-1' },
    [`${CLAIM}/roles`]: ROLES.instructor,
    [`${CLAIM}/context`]: { id: 'course-101', title: 'Academic Writing 101' },
    ...overrides,
  };
}

/** The payload of a signed id_token, read without verifying. */
export function payloadOf(idToken: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(idToken.split('.')[1] ?? '', 'base64url').toString('utf8')) as Record<string, unknown>;
}
