// The first screen of `npm start` in a terminal, once the tool listens: where to go, who else can reach it, where
// its data stays and how to stop it, in plain words. Printed only to a terminal: a service's log gets the records.
import type { Config } from '../config/config.js';

export interface WelcomeFacts {
  publicUrl: string;
  /** Where the dev platform is mounted; null: it is not (production, DEV_PLATFORM=off, ROLE=worker). */
  devPlatformUrl: string | null;
  /** DEV_PLATFORM: 'on' opens /dev to whoever reaches the tool; otherwise it answers browsers on this machine only. */
  devPlatform: Config['devPlatform'];
  /** Nobody off this machine can reach the tool at all. */
  loopbackOnly: boolean;
  /** The embedded database's folder (DATA_DIR), or null on a PostgreSQL server. */
  embeddedDataDir: string | null;
}

export function welcomeText(facts: WelcomeFacts): string {
  const lines = ['', '  originality-lti is running.', ''];
  if (facts.devPlatformUrl) {
    lines.push(
      `  Open ${facts.devPlatformUrl} in your browser: the dev platform, a demo course in which you open the tool`,
      '  as its instructor or as a student, submit a paper and watch its score reach the gradebook.',
      facts.devPlatform === 'on' && !facts.loopbackOnly
        ? '  DEV_PLATFORM=on: anyone who can reach this address can open it. Use it only on a network you trust.'
        : '  It is for this machine only: a browser on another computer is refused.',
    );
  } else {
    lines.push(
      `  The LTI tool is at ${facts.publicUrl}: register it in your LMS (dynamic registration: ${facts.publicUrl}/lti/register).`,
    );
    if (facts.loopbackOnly)
      lines.push('  Only this machine can reach it: set HOST and PUBLIC_URL to serve the network.');
  }
  if (facts.embeddedDataDir)
    lines.push(`  Its data stays in ${facts.embeddedDataDir}: started again, it goes on from there.`);
  lines.push('  Stop it with Ctrl-C.', '');
  return `${lines.join('\n')}\n`;
}
