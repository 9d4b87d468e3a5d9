// `npm run cli -- smoke --base URL`: a new installation checked end to end through its real deployment (the proxy,
// the web and worker processes, the database, the checking service). The command plays an LMS on this machine (the
// dev platform, on a loopback port), registers it, launches as its instructor (which creates an assignment), as a
// student who submits a short paper, and waits until the result is on the instructor's list and in the played LMS's
// gradebook; then it deletes the paper (at the service too) and removes the registration with what the run made.
// Each step is said as it ends, with its time; the first that fails ends the run with what it saw.
import { once } from 'node:events';
import type { Server } from 'node:http';
import { parseArgs } from 'node:util';
import express from 'express';
import { z } from 'zod';
import type { Config } from '../config/config.js';
import type { Database } from '../db/index.js';
import { launch } from '../devplatform/agent.js';
import { createDevPlatform } from '../devplatform/index.js';
import { addressAllowed, allowPlatformNetworks } from '../lti/platform-http.js';
import { PlatformDirectory } from '../lti/platform-directory.js';
import { toolUrls } from '../lti/provider.js';
import { removeRegistration, saveRegistration } from '../lti/registrations.js';
import { unknownFlagSentence } from './flags.js';
import { UsageError } from './usage.js';

const HELP = `Usage:
  npm run cli -- smoke [--base URL] [--minutes N]
      Checks the installation end to end: plays an LMS on this machine, registers it, launches as its instructor
      and as a student who submits a short paper, and waits (N minutes, 20 unless told) until the result is on the
      instructor's list and in the played LMS's gradebook; then removes what it made. --base: the tool's address
      as LMSs reach it (PUBLIC_URL unless told). The web and worker processes must be allowed to reach this
      machine's loopback address for the run (PLATFORM_PRIVATE_NETWORKS=127.0.0.1/32), as the played LMS is there.
`;

const flags = z.object({
  base: z
    .string()
    .url()
    // zod runs this even when .url() refused the value: one that does not parse is refused here too.
    .refine((value) => URL.canParse(value) && ['https:', 'http:'].includes(new URL(value).protocol)),
  minutes: z.coerce
    .number()
    .positive()
    .max(24 * 60),
});

/** Each request of the run ends within this, whatever the tool does. */
const REQUEST_DEADLINE_MS = 60_000;

const PAPER =
  'Rivers shape the land they cross. Over long ages a river carves its valley, carries silt to the plains and ' +
  'renews their soil with each flood; where it meets the sea it builds a delta of the ground it carried.';

function step(what: string, started: number, detail: string): void {
  console.log(`✔ ${what}: ${detail} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
}

async function until<T>(what: string, deadline: number, check: () => Promise<T | null>): Promise<T> {
  for (;;) {
    const found = await check();
    if (found !== null) return found;
    if (Date.now() > deadline) throw new Error(`✖ ${what}: not within the time given (see --minutes).`);
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

export async function smokeCommand(database: Database, config: Config, args: string[]): Promise<void> {
  let values;
  try {
    ({ values } = parseArgs({
      args,
      options: { base: { type: 'string' }, minutes: { type: 'string' }, help: { type: 'boolean' } },
      strict: true,
    }));
  } catch (error) {
    throw new UsageError(`${unknownFlagSentence(error as Error, ['base', 'minutes', 'help'])}\n\n${HELP}`);
  }
  if (values.help) return void process.stdout.write(HELP);
  const parsed = flags.safeParse({ base: values.base ?? config.publicUrl, minutes: values.minutes ?? '20' });
  if (!parsed.success) {
    const field = String(parsed.error.issues[0]!.path[0]);
    throw new UsageError(
      field === 'base'
        ? `--base must be the tool's full http or https address, such as https://lti.example.edu; it is ${values.base}.\n\n${HELP}`
        : `--minutes must be a number of minutes above 0; it is ${values.minutes}.\n\n${HELP}`,
    );
  }
  const base = parsed.data.base.replace(/\/+$/, '');
  if (!reachesLoopback(config)) {
    throw new Error(
      'The played LMS answers on 127.0.0.1, which the tool does not reach with these settings: set PLATFORM_PRIVATE_NETWORKS=127.0.0.1/32 for the web and worker processes (and this command) during the run, then remove it.',
    );
  }
  const deadline = Date.now() + parsed.data.minutes * 60_000;

  const app = express();
  const server: Server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  const origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const clientId = `smoke-${Date.now().toString(36)}`;
  const urls = toolUrls(base);
  const platform = await createDevPlatform({
    baseUrl: `${origin}/lms`,
    clientId,
    deploymentId: 'smoke',
    rules: 'spec',
    tool: { loginUrl: urls.login, launchUrl: urls.launch, jwksUrl: urls.keys },
  });
  app.use('/lms', platform.router);
  const store = { db: database.db, provider: new PlatformDirectory(database.db, config.encryptionKey) };
  const registration = platform.registration();
  try {
    let started = Date.now();
    await saveRegistration(store, { ...registration, name: `Smoke test (${clientId})` }, 'cli');
    step('register a played LMS', started, `issuer ${registration.issuer}, client id ${clientId}`);
    platform.addResourceLink({
      id: 'smoke-essay',
      title: 'Smoke test essay',
      lineItem: { label: 'Smoke test essay', scoreMaximum: 100, tag: 'similarity' },
    });

    started = Date.now();
    const instructor = await launch(platform, { userId: 'instructor-1', resourceLinkId: 'smoke-essay' });
    if (instructor.status !== 200 || !instructor.ltik)
      throw new Error(`✖ launch as the instructor: ${instructor.status} at ${instructor.url}`);
    const path = new URL(instructor.url).pathname.replace(/\/dashboard$/, '');
    step('launch as the instructor', started, `${instructor.status}, the assignment's dashboard at ${base}${path}`);

    started = Date.now();
    const student = await launch(platform, { userId: 'student-1', resourceLinkId: 'smoke-essay' });
    if (student.status !== 200 || !student.ltik)
      throw new Error(`✖ launch as a student: ${student.status} at ${student.url}`);
    const form = new FormData();
    form.append('file', new Blob([PAPER], { type: 'text/plain' }), 'smoke-test.txt');
    const upload = await fetch(`${base}${path}/submissions`, {
      method: 'POST',
      body: form,
      headers: { authorization: `Bearer ${student.ltik}`, accept: 'application/json' },
      signal: AbortSignal.timeout(REQUEST_DEADLINE_MS),
    });
    const receipt = (await upload.json().catch(() => ({}))) as { submissionId?: string; error?: string };
    if (upload.status !== 201 || !receipt.submissionId)
      throw new Error(`✖ submit as a student: ${upload.status} ${receipt.error ?? ''}`.trim());
    step('launch as a student and submit a paper', started, `${upload.status}, receipt ${receipt.submissionId}`);

    started = Date.now();
    const similarity = await until("the result on the instructor's list", deadline, async () => {
      const csv = await fetch(`${base}${path}/export.csv?ltik=${encodeURIComponent(instructor.ltik!)}`, {
        signal: AbortSignal.timeout(REQUEST_DEADLINE_MS),
      });
      // name, email, status, similarity, …: the student's row, once its similarity is there.
      const row = (await csv.text()).split(/\r?\n/).find((line) => line.startsWith('Sam Student,'));
      const percent = row?.split(',')[3];
      return percent ? percent : null;
    });
    step("the result on the instructor's list", started, `similarity ${similarity} %`);

    started = Date.now();
    const cell = await until("the result in the LMS's gradebook", deadline, async () => {
      // The paper's receipt may post a first, pending score; the result is the one that is graded or says it.
      const row = platform
        .gradebook()
        .find((entry) => entry.userId === 'student-1' && (entry.gradingProgress === 'FullyGraded' || entry.comment));
      return row ?? null;
    });
    step(
      "the result in the LMS's gradebook",
      started,
      `${cell.gradingProgress}${cell.comment ? `, comment "${cell.comment}"` : ''}`,
    );

    // The smoke paper leaves the service too, so that no student's paper is ever compared with it.
    started = Date.now();
    const removal = await fetch(`${base}${path}/submissions/${receipt.submissionId}/delete`, {
      method: 'POST',
      body: new URLSearchParams({ ltik: instructor.ltik }),
      headers: { origin: new URL(base).origin },
      redirect: 'manual',
      signal: AbortSignal.timeout(REQUEST_DEADLINE_MS),
    });
    const after = removal.headers.get('location') ?? '';
    if (removal.status !== 303 || !after.includes('tone=ok'))
      throw new Error(`✖ delete the paper: ${removal.status} ${decodeURIComponent(after)}`);
    step('delete the paper, at the service too', started, `${removal.status}`);
    console.log('The installation launches, takes a paper, checks it and posts its result.');
  } finally {
    await removeRegistration(store, { issuer: registration.issuer, clientId });
    server.close();
  }
}

/** Whether the tool, with these settings, may reach the played LMS at 127.0.0.1. */
function reachesLoopback(config: Config): boolean {
  allowPlatformNetworks(config.platformPrivateNetworks);
  return addressAllowed('127.0.0.1');
}
