// The dev platform in a process of its own, so that its signing of id_tokens and its gradebook cost the tool's
// process nothing: `node --import tsx bench/platform-process.ts TOOL_URL STUDENTS`. It prints
// `READY {url, registration, loginTemplate, controlUrl}` and serves, beside the platform, a summary of its
// gradebook at GET /control/grades.
import { ROLES } from '../src/devplatform/index.js';
import { servePlatform } from '../test/support/platform.js';

export const RESOURCE_LINK = 'essay';
export const USER_PLACEHOLDER = '__USER__';

export interface PlatformInfo {
  url: string;
  controlUrl: string;
  registration: { name: string; issuer: string; clientId: string; deploymentId: string; authUrl: string; tokenUrl: string; jwksUrl: string };
  /** The login initiation address for the essay link with USER_PLACEHOLDER for the user. */
  loginTemplate: string;
}

/** What the gradebook holds, and how often each student's final score was accepted. */
export interface GradeSummary {
  scores: number;
  fullyGraded: number;
  /** Accepted FullyGraded posts in all: one per student when nothing is graded twice. */
  fullyGradedPosts: number;
  /** Students with more than one accepted FullyGraded post. */
  gradedTwice: number;
}

async function main(toolUrl: string, students: number): Promise<void> {
  const served = await servePlatform(toolUrl);
  const { platform } = served;
  platform.addResourceLink({ id: RESOURCE_LINK, title: 'Essay', lineItem: { label: 'Essay', scoreMaximum: 100, tag: 'similarity' } });
  for (let i = 1; i <= students; i += 1) platform.addUser({ id: `student-${i}`, name: `Student ${i}`, email: `student-${i}@example.edu`, roles: ROLES.learner });

  served.app.get('/control/grades', (_req, res) => {
    const posts = new Map<string, number>();
    for (const entry of platform.scoreLog()) {
      const body = entry.body as { gradingProgress?: string };
      if (entry.status < 300 && body.gradingProgress === 'FullyGraded') posts.set(entry.userId, (posts.get(entry.userId) ?? 0) + 1);
    }
    const book = platform.gradebook();
    const summary: GradeSummary = {
      scores: book.length,
      fullyGraded: book.filter((row) => row.gradingProgress === 'FullyGraded').length,
      fullyGradedPosts: [...posts.values()].reduce((sum, n) => sum + n, 0),
      gradedTwice: [...posts.values()].filter((n) => n > 1).length,
    };
    res.json(summary);
  });
  const info: PlatformInfo = {
    url: served.url,
    controlUrl: served.url.replace(/\/lms$/, '/control'),
    registration: platform.registration(),
    loginTemplate: platform.loginInitiationUrl({ userId: USER_PLACEHOLDER, resourceLinkId: RESOURCE_LINK }),
  };
  process.stdout.write(`READY ${JSON.stringify(info)}\n`);
  process.on('SIGTERM', () => process.exit(0));
}

if (process.argv[1]?.endsWith('platform-process.ts')) await main(process.argv[2]!, Number(process.argv[3] ?? 0));
