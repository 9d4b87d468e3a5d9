// `npm run screenshots`: the pictures in docs/screenshots/, taken again. It starts the tool as `npm start` does
// without a database or a checking service (the embedded database in a fresh data folder, the sandbox, the dev
// platform at /dev), goes through one assignment as its instructor and students do in headless Chromium
// (playwright-core and Debian's chromium, as the tests), and photographs each page inside an LMS-like page: at
// 1366×900 beside a 285 px course index (as Moodle's Boost with its index open), at 768×1024 and at 390×844, the
// frame as tall as Moodle's would be, animations off; and the student after a result in the 650 px frame Moodle 4.5
// gives a tool at 1366×900 (it ignores lti.frameResize), the form for a new attempt opened, Submit in view (the
// script stops if it is not). The pictures are cut to 256 colours to stay small.
// Not part of `npm test` or CI: run it after a change that people would see, and commit the pictures.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Frame, type Page } from 'playwright-core';
import UPNG from 'upng-js';

// What the function handed to the browser sees (the project compiles without the DOM library).
declare const document: {
  getElementById(
    id: string,
  ): { contentWindow: { location: { pathname: string }; document: { readyState: string } } | null } | null;
  documentElement: { scrollHeight: number };
};

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const OUT = join(ROOT, 'docs', 'screenshots');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const COLOURS = 256;
// The reader: British English in Berlin, so the pictures show dates on the reader's clock, in the reader's order.
const LOCALE = 'en-GB';

/** An LMS's page at one window size: the frame's size is what Moodle 4.5 (Boost) gives a tool there. */
interface Look {
  width: number;
  height: number;
  frame: { width: number; height: number };
  /** The course index beside the content, as Moodle shows it on a wide screen. */
  index: boolean;
}
const LOOKS: Look[] = [
  { width: 1366, height: 900, frame: { width: 1000, height: 562 }, index: true },
  { width: 768, height: 1024, frame: { width: 704, height: 700 }, index: false },
  { width: 390, height: 844, frame: { width: 358, height: 480 }, index: false },
];

/** Moodle 4.5's frame at 1366×900 as measured in Boost: about 650 px tall, whatever the tool's height. */
const MOODLE_650: Look = { width: 1366, height: 900, frame: { width: 1000, height: 650 }, index: true };

const TITLE = 'Demo essay';
const PAPER = [
  'Glaciers in the Alps have lost more than half of their volume since the middle of the nineteenth century.',
  'Meltwater feeds rivers through the dry summer months, and its decline changes farming in the valleys below.',
  'Measurements from stakes drilled into the ice show the loss speeding up in the last three decades.',
  'Debris on the surface slows the melting in places, but it cannot stop the retreat of the glacier tongues.',
  'Communities in the mountains plan new reservoirs, since the ice that stored their water will soon be gone.',
].join(' ');

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** The tool as `npm start` runs it (from the sources), answering once it is ready. */
async function startTool(port: number, dataDir: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      DATA_DIR: dataDir,
      SANDBOX_DELAY_MS: '1500',
      POLL_SCHEDULE_SECONDS: '2,2,5',
      JOB_POLLING_SECONDS: '0.5',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const deadline = Date.now() + 300_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`The tool stopped as it started (exit code ${child.exitCode}).`);
    const ready = await fetch(`http://127.0.0.1:${port}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) return child;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  child.kill('SIGTERM');
  throw new Error('The tool did not become ready within five minutes.');
}

const escape = (text: string) => text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

/** An LMS-like page around the tool's frame: the LMS's bar, the course's header, the course index, the activity's title. */
function lmsPage(look: Look, launchUrl: string): string {
  const index = look.index
    ? `<nav class="index" aria-label="Course index"><strong>Academic Writing 101</strong><ul><li>General</li><li>Week 1: Sources</li><li>Week 2: Drafting</li><li class="here">${escape(TITLE)}</li><li>Week 3: Feedback</li></ul></nav>`
    : '';
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escape(TITLE)}</title><style>
  body { margin: 0; font: 15px/1.5 Arial, "Liberation Sans", sans-serif; color: #1d2125; background: #fff; }
  .bar { height: 60px; background: #fff; border-bottom: 1px solid #dee2e6; display: flex; align-items: center; padding: 0 16px; gap: 24px; box-shadow: 0 2px 4px rgba(0,0,0,.08); }
  .bar b { color: #0f6cbf; font-size: 18px; } .bar span { color: #495057; }
  .layout { display: flex; }
  .index { width: 285px; flex: none; box-sizing: border-box; padding: 16px; background: #f8f9fa; border-right: 1px solid #dee2e6; min-height: calc(100vh - 61px); }
  .index ul { list-style: none; padding: 0; margin: 12px 0; } .index li { padding: 6px 8px; color: #495057; } .index li.here { background: #e7f1ff; color: #0f6cbf; border-radius: 4px; }
  .content { flex: 1; min-width: 0; padding: ${look.width < 500 ? 16 : 24}px; box-sizing: border-box; }
  .course { font-size: 13px; color: #6a737b; } h1 { font-size: ${look.width < 500 ? 20 : 26}px; margin: 4px 0 12px; }
  .tabs { display: flex; gap: 20px; border-bottom: 1px solid #dee2e6; margin-bottom: 16px; font-size: 14px; } .tabs span { padding: 6px 0; } .tabs .on { border-bottom: 3px solid #0f6cbf; }
  iframe { display: block; border: 0; width: ${look.frame.width}px; height: ${look.frame.height}px; max-width: 100%; }
  </style></head><body><div class="bar"><b>LMS</b><span>Home</span><span>My courses</span></div><div class="layout">${index}<div class="content">
  <div class="course">Academic Writing 101</div><h1>${escape(TITLE)}</h1><div class="tabs"><span class="on">Activity</span><span>Settings</span><span>More</span></div>
  <iframe id="tool-frame" title="${escape(TITLE)}" src="${escape(launchUrl)}"></iframe></div></div></body></html>`;
}

interface Session {
  page: Page;
  /** The tool's page in the LMS's frame. */
  frame(): Promise<Frame>;
}

/** A person's launch of the demo assignment, shown in the LMS-like page at `look`. */
async function open(browser: Browser, base: string, look: Look, userId: string): Promise<Session> {
  const context = await browser.newContext({
    viewport: { width: look.width, height: look.height },
    reducedMotion: 'reduce',
    locale: LOCALE,
    timezoneId: 'Europe/Berlin',
  });
  const page = await context.newPage();
  const home = await (await fetch(`${base}/dev/`)).text();
  const name = {
    'instructor-1': 'Iris Instructor',
    'student-1': 'Sam Student',
    'student-2': 'Noor Student',
    'student-3': 'Lee Student',
  }[userId];
  const link = new RegExp(`<a href="([^"]+)">open as ${name}</a>`).exec(home)?.[1];
  if (!link) throw new Error(`The dev platform's page has no launch for ${userId}.`);
  // The LMS's page comes from the tool's own address, so the launch in its frame is first-party, as an LMS on the
  // tool's site would be; the frame is allowed there like any registered platform's.
  await page.route(`${base}/lms-page`, (route) =>
    route.fulfill({ contentType: 'text/html', body: lmsPage(look, link.replace(/&amp;/g, '&')) }),
  );
  await page.goto(`${base}/lms-page`);
  const frame = async () => (await (await page.$('#tool-frame'))!.contentFrame())!;
  await page.waitForFunction(
    () => {
      const inner = document.getElementById('tool-frame')?.contentWindow;
      try {
        return inner?.location.pathname.startsWith('/assignments/') && inner.document.readyState === 'complete';
      } catch {
        return false;
      }
    },
    undefined,
    { timeout: 60_000 },
  );
  return { page, frame };
}

/** The frame opens another page of the tool, at a path of the assignment (the session's ltik kept). */
async function goTo(session: Session, path: (current: URL) => string): Promise<void> {
  const frame = await session.frame();
  const current = new URL(frame.url());
  await frame.goto(new URL(path(current), current).toString());
}

const written: string[] = [];

/** The window as a person sees it, cut to COLOURS colours. */
async function shoot(session: Session, name: string): Promise<void> {
  await (await session.frame()).waitForLoadState('load');
  const png = await session.page.screenshot({ animations: 'disabled', caret: 'hide' });
  const image = UPNG.decode(png.buffer.slice(png.byteOffset, png.byteOffset + png.byteLength) as ArrayBuffer);
  const small = Buffer.from(UPNG.encode(UPNG.toRGBA8(image), image.width, image.height, COLOURS));
  writeFileSync(join(OUT, name), small);
  written.push(`${name} ${Math.round(small.length / 1024)} KB`);
}

async function submit(session: Session, fileName: string, text: string): Promise<void> {
  const frame = await session.frame();
  await frame
    .locator('input[type="file"]')
    .setInputFiles({ name: fileName, mimeType: 'text/plain', buffer: Buffer.from(text) });
  await frame.locator('form button[type="submit"]').first().click();
  await frame.locator('[role="status"], .arrival').filter({ hasText: fileName }).first().waitFor({ timeout: 30_000 });
}

/**
 * A refused launch in Moodle 4.5's frame (about 650 px tall at 1366×900): a course page on an LMS the tool does not
 * know frames a login whose client id nobody registered. The sentence, and what the LMS administrator must do, shows
 * in the frame instead of the browser's broken-page icon.
 */
async function refusedLaunchShot(browser: Browser, base: string): Promise<void> {
  const moodle: Look = { width: 1366, height: 900, frame: { width: 1000, height: 650 }, index: true };
  const context = await browser.newContext({
    viewport: { width: moodle.width, height: moodle.height },
    reducedMotion: 'reduce',
    locale: LOCALE,
  });
  const page = await context.newPage();
  const login = new URL('/lti/login', base);
  login.search = new URLSearchParams({
    iss: 'https://moodle.school.example',
    client_id: 'a-tool-type-nobody-registered',
    login_hint: '3',
    target_link_uri: `${base}/lti/launch`,
  }).toString();
  // The LMS's course page from a server of its own: another origin than the tool's, one the tool does not know.
  const lms = createHttpServer((_req, res) => {
    res.setHeader('content-type', 'text/html');
    res.end(lmsPage(moodle, login.toString()));
  });
  await new Promise<void>((resolve) => lms.listen(0, '127.0.0.1', resolve));
  const address = lms.address();
  await page.goto(
    `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/mod/lti/view.php?id=12`,
  );
  const frame = (await (await page.$('#tool-frame'))!.contentFrame())!;
  await frame.getByText('must register the tool').waitFor({ timeout: 30_000 });
  await shoot({ page, frame: async () => frame }, 'refused-launch-1366.png');
  await context.close();
  lms.close();
}

async function main(): Promise<void> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'originality-screenshots-'));
  const base = `http://127.0.0.1:${port}`;
  let tool: ChildProcess;
  try {
    tool = await startTool(port, dataDir);
  } catch (error) {
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', `--lang=${LOCALE}`],
  });
  try {
    const [wide] = LOOKS;
    // The instructor opens the assignment (the tool makes it) and decides its settings.
    const iris = await open(browser, base, wide!, 'instructor-1');
    await goTo(iris, (url) => `${url.pathname.replace(/\/dashboard$/, '/settings')}${url.search}`);
    const settings = await iris.frame();
    await settings.getByLabel('Due date', { exact: true }).fill('2026-12-18T17:00');
    await settings.getByLabel('Resubmissions').selectOption('until-due');
    await settings.getByLabel('Attempts', { exact: true }).fill('3');
    await settings.getByRole('button', { name: 'Save settings' }).click();
    await settings.getByText('Saved.').waitFor();
    await iris.page.context().close();

    // Two students send their papers (the second a near copy of the first); a third has sent nothing yet.
    for (const [user, file, text] of [
      ['student-1', 'my-essay.txt', PAPER],
      ['student-2', 'glaciers.txt', `${PAPER} Their loss is a warning for every mountain region.`],
    ] as const) {
      const student = await open(browser, base, wide!, user);
      await submit(student, file, text);
      await (await student.frame()).getByRole('link', { name: 'View report' }).first().waitFor({ timeout: 90_000 });
      await student.page.context().close();
    }

    rmSync(OUT, { recursive: true, force: true });
    mkdirSync(OUT, { recursive: true });
    for (const look of LOOKS) {
      const size = String(look.width);
      const shots: Array<[string, string, (session: Session) => Promise<void>]> = [
        ['dashboard', 'instructor-1', async () => {}],
        [
          'settings',
          'instructor-1',
          async (s) => {
            await goTo(s, (url) => `${url.pathname.replace(/\/dashboard$/, '/settings')}${url.search}`);
            const length = await (await s.frame()).evaluate(() => document.documentElement.scrollHeight);
            written.push(`(the settings page is ${length} px long in the ${look.frame.width} px frame)`);
          },
        ],
        [
          'report-viewer',
          'instructor-1',
          async (s) => {
            const href = await (await s.frame()).locator('a[href*="/view?"]').first().getAttribute('href');
            await goTo(s, () => href!);
            await (await s.frame()).locator('#report-pages canvas').first().waitFor({ timeout: 30_000 });
          },
        ],
        ['student-before', 'student-3', async () => {}],
        [
          'student-refusal',
          'student-3',
          async (s) => {
            const frame = await s.frame();
            await frame.locator('input[type="file"]').setInputFiles({
              name: 'photo.png',
              mimeType: 'image/png',
              buffer: Buffer.from('89504e470d0a1a0a', 'hex'),
            });
            const alert = frame.locator('[role="alert"]').filter({ hasText: /\S/ }).first();
            await alert.waitFor();
            // The refusal in the middle of the frame, where the person who chose the file is looking.
            await alert.evaluate((element) =>
              (element as unknown as { scrollIntoView(options: object): void }).scrollIntoView({ block: 'center' }),
            );
          },
        ],
        ['student-after', 'student-1', async () => {}],
      ];
      for (const [name, user, prepare] of shots) {
        const session = await open(browser, base, look, user);
        await prepare(session);
        await shoot(session, `${name}-${size}.png`);
        await session.page.context().close();
      }
    }

    // The student after a result in Moodle's 650 px frame: the result, and Submit once "Submit a new attempt" opens.
    const sam = await open(browser, base, MOODLE_650, 'student-1');
    const frame = await sam.frame();
    await frame.getByText('Submit a new attempt').click();
    const submitButton = await frame.getByRole('button', { name: 'Submit', exact: true }).boundingBox();
    const frameBox = await (await sam.page.$('#tool-frame'))!.boundingBox();
    if (!submitButton || !frameBox || submitButton.y + submitButton.height > frameBox.y + frameBox.height)
      throw new Error("Submit is below the edge of Moodle's 650 px frame after a result.");
    await shoot(sam, 'student-after-moodle-650.png');
    await sam.page.context().close();

    await refusedLaunchShot(browser, base);
  } finally {
    await browser.close();
    tool.kill('SIGTERM');
    await new Promise((resolve) => tool.once('exit', resolve));
    rmSync(dataDir, { recursive: true, force: true });
  }
  const total = readdirSync(OUT).length;
  process.stdout.write(`${written.join('\n')}\n${total} pictures in docs/screenshots/\n`);
}

await main();
