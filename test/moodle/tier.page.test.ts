// The real-Moodle tier: both plugins installed into the Moodle 4.5.6 of ../shared/moodle, the tool registered as its
// LTI 1.3 tool type, and Moodle's own assignment played as its people play it, in Chromium: a teacher makes an
// assignment with the originality check on; students submit a file, an online text, a group submission and a
// resubmission; Moodle's ad hoc tasks announce them; the tool (with its sandbox as the checking service) fetches each
// paper from Moodle's Asset Service and posts its reports; the similarity shows in the grader and to the student as
// the tool's settings allow; "View report" opens the report through the report review launch; a removed submission
// and a deleted user leave nothing of theirs in the plugin. Each step is a test of its own, so the reporter prints its
// time. It runs with MOODLE_TIER=1 (`bash .ci/run` sets it where ../shared/moodle exists) and says so otherwise.
import assert from 'node:assert/strict';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { saveRegistration } from '../../src/lti/registrations.js';
import { launchBrowser, screenshot } from '../support/browser.js';
import { projectRoot } from '../support/process.js';
import { startTestTool, type TestTool } from '../support/tool.js';
import { eventually } from '../support/wait.js';

const run = promisify(execFile);
const sharedMoodle = resolve(process.env.MOODLE_KIT ?? join(projectRoot, '..', 'shared', 'moodle'));
const moodleHome = process.env.MOODLE_HOME ?? join(homedir(), '.moodle-kit');
const moodleDir = join(moodleHome, 'moodle');
const wwwroot = (process.env.MOODLE_WWWROOT ?? 'http://localhost:8081').replace(/\/$/, '');
const helper = join(projectRoot, 'test/moodle/php/tier.php');
/** Held while the tier relies on plagiarism_olti's tool type (another real-Moodle test may point it elsewhere). */
const CONFIG_LOCK = '/tmp/moodle-olti-config.lock';
/** Two plugin upgrades never run at once. */
const UPGRADE_LOCK = '/tmp/moodle-upgrade.lock';
/** Moodle's PAGE_READY_JS, word for word (lib/behat/classes/behat_session_interface.php, Moodle 4.5.6). */
const MOODLE_PAGE_READY =
  "document.readyState === 'complete' && " +
  "(typeof M !== 'object' || typeof M.util !== 'object' || " +
  "typeof M.util.pending_js === 'undefined' || M.util.pending_js.length === 0)";
/** Where the grader's and the student's pictures go: the docs' folder when asked for, else the test artifacts. */
const pictures = process.env.MOODLE_TIER_SCREENSHOTS === '1' ? join(projectRoot, 'docs/screenshots') : null;

const skip = !existsSync(join(sharedMoodle, 'up.sh'))
  ? `the real-Moodle tier needs ../shared/moodle (Moodle 4.5.6 and its scripts), which is not at ${sharedMoodle}`
  : process.env.MOODLE_TIER !== '1'
    ? 'the real-Moodle tier runs with MOODLE_TIER=1 (bash .ci/run runs it where ../shared/moodle exists)'
    : !existsSync(join(moodleDir, 'config.php'))
      ? `no Moodle is installed at ${moodleDir}: run bash ../shared/moodle/up.sh first`
      : false;

interface Person {
  id: number;
  username: string;
  password: string;
  name: string;
}
interface AssetState {
  uuid: string;
  userid: number;
  groupid: number;
  submissionid: number;
  attempt: number;
  kind: 'file' | 'onlinetext';
  filename: string;
  noticestatus: string;
  file: boolean;
  reports: { type: string; progress: string; result: string | null; visibletoowner: boolean; colour: string | null }[];
}

async function php<T>(...args: string[]): Promise<T> {
  const { stdout } = await run('php', [helper, ...args], {
    env: { ...process.env, MOODLE_DIR: moodleDir },
    maxBuffer: 16 * 1024 * 1024,
  });
  return JSON.parse(stdout) as T;
}

const state = (cmid: number) => php<{ assets: AssetState[]; queued: number }>('state', String(cmid));

/** Moodle's ad hoc tasks, run as its cron would: what they printed. */
async function adhocTasks(): Promise<string> {
  const { stdout } = await run('php', [join(moodleDir, 'admin/cli/adhoc_task.php'), '--execute'], {
    maxBuffer: 16 * 1024 * 1024,
  });
  return stdout;
}

/** An exclusive flock held by a child process until release() closes its stdin. */
async function holdLock(path: string): Promise<{ release(): Promise<void> }> {
  const child: ChildProcess = spawn('flock', ['-x', path, '-c', 'echo held; exec cat'], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout!.once('data', () => resolve());
    child.once('exit', (code) => reject(new Error(`flock ${path} ended with ${code}`)));
  });
  return {
    release: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.stdin!.end();
      }),
  };
}

function paper(dir: string, name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

const ESSAY =
  'The industrial revolution changed how people worked and lived. Factories drew workers from farms into growing ' +
  'cities, where steam engines powered looms and mills around the clock. Wages were low, hours were long, and ' +
  'children worked beside their parents. Over decades, laws limited working hours, banned the youngest from ' +
  'factories and gave workers the right to organise. Railways carried coal, cotton and people faster than ever.';

describe('Moodle 4.5 with plagiarism_olti and ltiservice_olti, played in Chromium', { skip }, () => {
  let tool: TestTool;
  let browser: Browser;
  let lock: { release(): Promise<void> };
  let work: string;
  let course: number;
  let typeid: number;
  let people: Record<'s0' | 's1' | 's2' | 's3', Person>;
  let teacher: { username: string; password: string };
  let teacherId = 0;
  let group: { id: number; name: string };
  let essayCmid = 0;
  let groupCmid = 0;
  const contexts: BrowserContext[] = [];
  const stamp = new Date().toISOString().slice(0, 16).replace('T', ' ');

  before(async () => {
    work = mkdtempSync(join(tmpdir(), 'moodle-tier-'));
    lock = await holdLock(CONFIG_LOCK);
    tool = await startTestTool({ ASSET_PROCESSOR: 'on', SANDBOX_DELAY_MS: '1000' });
    browser = await launchBrowser();
  });

  after(async () => {
    for (const context of contexts) await context.close().catch(() => {});
    await browser?.close();
    await tool?.stop();
    await lock?.release();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  async function signIn(username: string, password: string): Promise<Page> {
    const context = await browser.newContext({ viewport: { width: 1366, height: 900 }, locale: 'en-GB' });
    contexts.push(context);
    const page = await context.newPage();
    await page.goto(`${wwwroot}/login/index.php`);
    await page.fill('#username', username);
    await page.fill('#password', password);
    await Promise.all([page.waitForURL((url) => !url.pathname.startsWith('/login/')), page.click('#loginbtn')]);
    return page;
  }

  /** The teacher's "Add an activity": an assignment with files and online text, the check switched on. */
  async function makeAssignment(page: Page, name: string, options: { groups?: boolean } = {}): Promise<number> {
    await page.goto(`${wwwroot}/course/modedit.php?add=assign&type=&course=${course}&section=0&return=0&sr=0`);
    await page.fill('#id_name', name);
    const expand = page.locator('a.collapseexpand');
    if (await expand.count()) await expand.first().click();
    await page.check('#id_assignsubmission_onlinetext_enabled');
    await page.check('#id_assignsubmission_file_enabled');
    if (options.groups) await page.selectOption('#id_teamsubmission', '1');
    await page.check('#id_plagiarism_olti_enabled');
    await Promise.all([page.waitForURL(/\/mod\/assign\/view\.php\?id=\d+/), page.click('#id_submitbutton')]);
    return Number(new URL(page.url()).searchParams.get('id'));
  }

  /**
   * Moodle's own readiness test (lib/behat/classes/behat_session_interface.php, PAGE_READY_JS, Moodle 4.5.6): the
   * page is loaded and no JavaScript action Moodle tracks (M.util.pending_js: an AJAX call of the file manager, a
   * dialogue's animation) is under way. Moodle's Behat steps wait for it after each action; so does this test.
   */
  async function moodleIdle(page: Page) {
    await page.waitForFunction(MOODLE_PAGE_READY, undefined, { timeout: 120_000, polling: 100 });
  }

  /**
   * A student's "Add submission" (or "Edit submission"): a file through Moodle's file picker, or typed text. The file
   * manager is driven as Moodle's own Behat steps drive it (Moodle 4.5.6: behat_filepicker::
   * i_delete_file_from_filemanager; core_behat_file_helper::open_add_file_window; behat_repository_upload::
   * upload_file_to_filemanager): delete through the file's menu and "Yes" in the "Confirm" dialogue (core/notification's modal: lib/form/filemanager.js, show_confirm_dialog); open "Add", wait until
   * the default repository has loaded (no .fp-content-loading in the picker), choose "Upload a file" only if it is not
   * the active repository already ("clicking it while it's active causes issues (see MDL-51014)"), then the upload
   * form, and wait for Moodle to be idle after each action.
   */
  async function submit(page: Page, cmid: number, work: { file?: string; replace?: boolean; text?: string }) {
    await page.goto(`${wwwroot}/mod/assign/view.php?id=${cmid}&action=editsubmission`);
    await page.locator('#plagiarism_olti_disclosure').waitFor();
    await moodleIdle(page);
    if (work.file) {
      // The submission's file manager; the online text's editor has a file picker of its own.
      const manager = page.locator('.filemanager').first();
      if (work.replace) {
        await manager.locator('.fp-file a, .fp-filename-icon a').first().click();
        await page.locator('.fp-select:visible .fp-file-delete').click();
        await page.getByRole('dialog', { name: 'Confirm' }).getByRole('button', { name: 'Yes' }).click();
        await moodleIdle(page);
        await eventually(
          async () => (await manager.locator('.fp-content .fp-file:visible').count()) === 0,
          'the old file left the file manager',
          60_000,
          200,
        );
      }
      await manager.locator('.fp-btn-add a').click();
      const picker = page.locator('.file-picker:visible');
      await picker.locator('.fp-content:not(:has(.fp-content-loading))').waitFor();
      await moodleIdle(page);
      const upload = picker.locator('.fp-repo:has(.fp-repo-name:text-is("Upload a file"))');
      if (!(await upload.locator('a.nav-link.active').count())) {
        await upload.locator('a').click();
        await moodleIdle(page);
      }
      await picker.locator('.fp-upload-form form input[type=file][name=repo_upload_file]').setInputFiles(work.file);
      await picker.locator('.fp-upload-btn').click();
      await moodleIdle(page);
      await manager
        .locator(`.fp-filename:text-is("${basename(work.file)}")`)
        .first()
        .waitFor();
    }
    if (work.text) {
      await page.frameLocator('#id_onlinetext_editor_ifr').locator('body').click();
      await page.keyboard.insertText(work.text);
    }
    await Promise.all([page.waitForURL(/action=view/), page.click('#id_submitbutton')]);
  }

  it('installs both plugins into Moodle', async () => {
    for (const [source, target] of [
      ['moodle/plagiarism_olti', 'plagiarism/olti'],
      ['moodle/ltiservice_olti', 'mod/lti/service/olti'],
    ] as const) {
      rmSync(join(moodleDir, target), { recursive: true, force: true });
      cpSync(join(projectRoot, source), join(moodleDir, target), { recursive: true });
    }
    await run('flock', [UPGRADE_LOCK, 'php', join(moodleDir, 'admin/cli/upgrade.php'), '--non-interactive'], {
      maxBuffer: 16 * 1024 * 1024,
    });
    // Moodle runs each plugin at the version its version.php names.
    for (const [component, source] of [
      ['plagiarism_olti', 'moodle/plagiarism_olti'],
      ['ltiservice_olti', 'moodle/ltiservice_olti'],
    ] as const) {
      const declared = /\$plugin->version\s*=\s*(\d+)/.exec(
        readFileSync(join(projectRoot, source, 'version.php'), 'utf8'),
      )!;
      assert.deepEqual(await php('version', component), { version: Number(declared[1]) }, component);
    }
  });

  it('registers the tool as a Moodle LTI 1.3 tool type and chooses it for the check', async () => {
    const registration = join(work, 'registration.json');
    const names = {
      MOODLE_HOME: moodleHome,
      TOOL_BASE: tool.url,
      TOOL_NAME: 'originality-lti (the real-Moodle tier)',
      COURSE_SHORTNAME: 'OLTITIER',
      COURSE_FULLNAME: 'Originality check in Moodle',
      TEACHER_USER: 'olti_teacher',
      TEACHER_PASS: 'Teacher#1234',
      STUDENT_USER: 'olti_s0',
      STUDENT_PASS: 'Student#1234',
      LTI_ACTIVITY_NAME: 'The tool as an activity',
      LTI_REGISTRATION_JSON: registration,
    };
    await run('bash', [join(sharedMoodle, 'provision.sh')], { env: { ...process.env, ...names } });
    const written = JSON.parse(readFileSync(registration, 'utf8')) as {
      [name in 'issuer' | 'client_id' | 'deployment_id' | 'auth_login_url' | 'auth_token_url' | 'key_set_url']: string;
    } & { course: { id: number }; users: { teacher: { id: number } } };
    course = written.course.id;
    teacherId = written.users.teacher.id;
    typeid = Number(written.deployment_id);
    await saveRegistration(
      { db: tool.tool.database.db, provider: tool.tool.platforms },
      {
        name: 'Moodle (the real-Moodle tier)',
        issuer: written.issuer,
        clientId: written.client_id,
        deploymentId: written.deployment_id,
        authUrl: written.auth_login_url,
        tokenUrl: written.auth_token_url,
        jwksUrl: written.key_set_url,
        productFamily: 'moodle',
      },
      'cli',
    );
    assert.deepEqual(await php('configure', String(typeid)), { typeid });
    const made = await php<{ people: Record<'s1' | 's2' | 's3', Person>; group: { id: number; name: string } }>(
      'people',
      'OLTITIER',
      'olti',
    );
    const { id } = await php<{ id: number }>('user', 'olti_s0');
    const s0 = { id, username: 'olti_s0', password: 'Student#1234', name: 'Sam Student' };
    people = { s0, ...made.people };
    group = made.group;
    teacher = { username: 'olti_teacher', password: 'Teacher#1234' };
  });

  it('a teacher makes an assignment, and a group assignment, with the originality check on', async () => {
    const page = await signIn(teacher.username, teacher.password);
    essayCmid = await makeAssignment(page, `Essay on the industrial revolution (${stamp})`);
    groupCmid = await makeAssignment(page, `Group report (${stamp})`, { groups: true });
    await page.goto(`${wwwroot}/course/modedit.php?update=${essayCmid}`);
    const expand = page.locator('a.collapseexpand');
    if (await expand.count()) await expand.first().click();
    assert.equal(await page.locator('#id_plagiarism_olti_enabled').isChecked(), true, 'the switch stays on');
    // The check's settings are the tool's: the form's link opens them through a settings launch.
    const [settings] = await Promise.all([
      page.context().waitForEvent('page'),
      page.locator('a.plagiarism_olti_settings').click(),
    ]);
    await settings.waitForURL(
      (url) => url.origin === new URL(tool.url).origin && /^\/assignments\/[^/]+\/settings$/.test(url.pathname),
      { timeout: 30_000, waitUntil: 'domcontentloaded' },
    );
    await settings.close();
  });

  it('students submit a file, an online text and a group submission', async () => {
    const s1 = await signIn(people.s1.username, people.s1.password);
    await submit(s1, essayCmid, { file: paper(work, 'industrial-revolution.txt', ESSAY) });
    const s0 = await signIn(people.s0.username, people.s0.password);
    await submit(s0, essayCmid, { text: `My own words: ${ESSAY.slice(0, 200)}` });
    const s2 = await signIn(people.s2.username, people.s2.password);
    await submit(s2, groupCmid, {
      file: paper(work, 'team-report.txt', 'Our team measured how quickly ice melts in salt water and fresh water.'),
    });
    const essay = await state(essayCmid);
    assert.deepEqual(essay.assets.map((asset) => [asset.kind, asset.filename, asset.noticestatus, asset.file]).sort(), [
      ['file', 'industrial-revolution.txt', 'pending', true],
      ['onlinetext', 'onlinetext.html', 'pending', true],
    ]);
    const team = await state(groupCmid);
    assert.equal(team.assets.length, 1);
    assert.equal(team.assets[0]!.groupid, group.id, 'the group submission names the group');
    assert.equal(team.assets[0]!.userid, people.s2.id, '… and the member who submitted it');
  });

  it('a student submits again: the new file is a paper of its own', async () => {
    const s1 = contexts[1]!.pages()[0]!;
    await submit(s1, essayCmid, {
      file: paper(work, 'industrial-revolution-v2.txt', `${ESSAY} Steam changed travel too.`),
      replace: true,
    });
    const files = (await state(essayCmid)).assets.filter((asset) => asset.userid === people.s1.id);
    assert.deepEqual(files.map((asset) => asset.filename).sort(), [
      'industrial-revolution-v2.txt',
      'industrial-revolution.txt',
    ]);
  });

  it("Moodle's ad hoc tasks announce every paper to the tool", async () => {
    const said = await adhocTasks();
    assert.match(said, /plagiarism_olti: notice sent/);
    for (const cmid of [essayCmid, groupCmid]) {
      const { assets } = await state(cmid);
      assert.deepEqual(
        assets.filter((asset) => asset.noticestatus !== 'sent').map((asset) => asset.filename),
        [],
        `${cmid}: not all sent:\n${said}`,
      );
    }
  });

  it('the tool checks each paper once and its reports reach Moodle', async () => {
    const all = async () => [...(await state(essayCmid)).assets, ...(await state(groupCmid)).assets];
    await eventually(
      async () =>
        (await all()).every((asset) =>
          asset.reports.some((report) => report.type === 'originality' && report.progress === 'Processed'),
        ),
      `not every paper was reported Processed: ${JSON.stringify(await all(), null, 1)}\n${tool.logs.slice(-30).join('\n')}`,
      180_000,
      1000,
    );
    const papers = await tool.tool.database.db.selectFrom('lms_asset').select(['asset_id', 'submission_id']).execute();
    const ours = new Set((await all()).map((asset) => asset.uuid));
    const checked = papers.filter((row) => ours.has(row.asset_id));
    assert.equal(checked.length, ours.size, 'each paper kept once by the tool');
    assert.equal(new Set(checked.map((row) => row.submission_id)).size, ours.size, 'each checked once');
  });

  it('the similarity shows beside each paper in the grader', async () => {
    const page = contexts[0]!.pages()[0]!;
    await page.goto(`${wwwroot}/mod/assign/view.php?id=${essayCmid}&action=grading`);
    const badges = page.locator('.plagiarism_olti_report .plagiarism_olti_badge');
    await badges.first().waitFor();
    const results = await badges.allTextContents();
    assert.ok(results.length >= 2, `the file and the online text in the grader, found ${results.length}`);
    for (const result of results) assert.match(result.trim(), /^\d+(\.\d)?%$/);
    assert.ok((await page.locator('a.plagiarism_olti_view').count()) >= 2, 'each has "View report"');
    // One read of the assignment's results per page, none per paper: what get_links() reads for each paper once the
    // first result is drawn (before it, the page's own reads: the user's capabilities, the settings, the template).
    const cost = await php<{ papers: number; shown: number; untilfirst: number; afterfirst: number }>(
      'links',
      String(essayCmid),
      String(teacherId),
    );
    process.stdout.write(
      `# grader: ${cost.shown} of ${cost.papers} papers with results; database reads until the first result ` +
        `${cost.untilfirst}, for all the others ${cost.afterfirst}\n`,
    );
    assert.ok(cost.shown >= 2, `results for the file and the online text: ${JSON.stringify(cost)}`);
    assert.equal(cost.afterfirst, 0, 'no read per paper');
    await screenshot(page, 'moodle-grader');
    if (pictures) await page.screenshot({ path: join(pictures, 'moodle-grader.png') });
  });

  it('the student sees the similarity of their own paper, as the tool allows by default', async () => {
    const page = contexts[1]!.pages()[0]!;
    await page.goto(`${wwwroot}/mod/assign/view.php?id=${essayCmid}`);
    const badges = page.locator('.plagiarism_olti_report .plagiarism_olti_badge');
    await badges.first().waitFor();
    for (const result of await badges.allTextContents()) assert.match(result.trim(), /^\d+(\.\d)?%$/);
    // Their submission holds the new file only; the others' papers are not theirs to see.
    assert.equal(await page.locator('.plagiarism_olti_report').count(), 1, 'one result: their file');
    await screenshot(page, 'moodle-student');
    if (pictures) {
      mkdirSync(pictures, { recursive: true });
      await page.screenshot({ path: join(pictures, 'moodle-student.png') });
    }
  });

  it('"View report" opens the report through the report review launch', async () => {
    const page = contexts[0]!.pages()[0]!;
    await page.goto(`${wwwroot}/mod/assign/view.php?id=${essayCmid}&action=grading`);
    const [report] = await Promise.all([
      page.context().waitForEvent('page'),
      page.locator('a.plagiarism_olti_view[href*="type=originality"]').first().click(),
    ]);
    // Moodle's launch page, the tool's login, the plugin's auth.php, the tool's launch, then the tool's report.
    await report
      .waitForURL((url) => url.origin === new URL(tool.url).origin && url.pathname.startsWith('/reports/'), {
        timeout: 30_000,
        waitUntil: 'domcontentloaded',
      })
      .catch(async (error: Error) => {
        await screenshot(report, 'moodle-report-review-stuck');
        throw new Error(`${error.message}\n${report.url()}\n${(await report.content()).slice(0, 2000)}`);
      });
    await report.waitForLoadState('domcontentloaded');
    const text = await report.locator('body').innerText();
    assert.match(text, /\d+(\.\d)?\s?%/, `the report page shows a similarity:\n${text.slice(0, 500)}`);
    await screenshot(report, 'moodle-report-review');
  });

  it('a removed submission leaves nothing of it behind, and the tool is told', async () => {
    const page = contexts[2]!.pages()[0]!; // olti_s0, who wrote the online text
    const submission = await php<{ id: number }>('submission', String(essayCmid), String(people.s0.id));
    await page.goto(`${wwwroot}/mod/assign/view.php?id=${essayCmid}`);
    await Promise.all([page.waitForURL(/removesubmissionconfirm/), page.click('button:has-text("Remove submission")')]);
    await Promise.all([page.waitForURL(/action=view/), page.click('button:has-text("Continue")')]);
    assert.deepEqual(await php('left', '0', String(submission.id)), { assets: 0, reports: 0, files: 0 });
    assert.match(await adhocTasks(), /plagiarism_olti: removal sent/);
  });

  it('a deleted user leaves nothing of theirs behind', async () => {
    assert.ok((await php<{ assets: number }>('left', String(people.s1.id), '0')).assets > 0);
    await php('delete-user', String(people.s1.id));
    assert.deepEqual(await php('left', String(people.s1.id), '0'), { assets: 0, reports: 0, files: 0 });
  });
});
