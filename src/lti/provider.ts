// The tool's fixed LTI addresses (`/lti/login`, `/lti/launch`, `/lti/keys`, `/lti/register`), which the LMS is
// given at registration and the web part mounts (the keys through ltijs, lti/ltijs/provider.ts; the rest the tool's).
export const LTI_MOUNT_PATH = '/lti';
export const LTI_ROUTES = { login: '/login', launch: '/launch', keys: '/keys', register: '/register' } as const;

export function toolUrls(publicUrl: string) {
  const base = `${publicUrl}${LTI_MOUNT_PATH}`;
  return {
    login: `${base}${LTI_ROUTES.login}`,
    launch: `${base}${LTI_ROUTES.launch}`,
    keys: `${base}${LTI_ROUTES.keys}`,
    register: `${base}${LTI_ROUTES.register}`,
  };
}
