// Two schools on one installation, for the fairness tests: LMS A, whose Asset Report Service is slow, and LMS B, each
// with the tool attached to an assignment of its own; and how long B's first report waits behind A's.
import assert from 'node:assert/strict';
import { attachToActivity } from './asset-processor.js';
import { essay } from './hardening.js';
import { startTestPlatform, type ServedPlatform } from './platform.js';
import { FAST_JOBS, type TestTool } from './tool.js';
import { eventually } from './wait.js';

export const CONCURRENCY = 4;
export const A_FILES = 16;
/** How long A's report service holds each report: on main, B's first report came after two of these at least. */
export const SLOW_MS = 12_000;
/** B's first report within this of its notice: a few of the job queue's polls on a loaded machine, not A's turn. */
export const B_WITHIN_MS = 8_000;
const ACTIVITY_A = { id: 'a0b1c2d3-0000-4000-8000-0000000000a1', title: 'Essay at school A' };
const ACTIVITY_B = { id: 'a0b1c2d3-0000-4000-8000-0000000000b2', title: 'Essay at school B' };

export const jobSettings = {
  ASSET_PROCESSOR: 'on',
  POLL_SCHEDULE_SECONDS: '1,1,2',
  ...FAST_JOBS,
  JOB_CONCURRENCY: String(CONCURRENCY),
  SHUTDOWN_TIMEOUT_MS: '1000',
};

export interface School {
  lmsA: ServedPlatform;
  lmsB: ServedPlatform;
}

export async function openSchools(tool: TestTool): Promise<School> {
  const lmsA = await startTestPlatform(tool, { rules: 'canvas', clientId: 'school-a' });
  const lmsB = await startTestPlatform(tool, { rules: 'canvas', clientId: 'school-b' });
  await attachToActivity(tool, lmsA, ACTIVITY_A);
  await attachToActivity(tool, lmsB, ACTIVITY_B);
  return { lmsA, lmsB };
}

const file = (n: string) => ({ content: Buffer.from(essay(n)), filename: `${n}.txt`, contentType: 'text/plain' });

/**
 * A's 16 files announced, its reports held `SLOW_MS` each; once A's reports hold `aPlaces` places, B's one file.
 * Gives how long after B's notice B's first report came, and the most of A's reports held at once.
 */
export async function delayBehindSlowLms(
  schools: School,
  aPlaces: number,
): Promise<{ firstReportMs: number; mostOfA: number }> {
  const { lmsA, lmsB } = schools;
  lmsA.platform.setFaults({ assetReportDelayMs: SLOW_MS });
  let mostOfA = 0;
  const watch = setInterval(() => (mostOfA = Math.max(mostOfA, lmsA.platform.heldReports())), 20);
  try {
    const sentA = await lmsA.platform.submitToActivity({
      activityId: ACTIVITY_A.id,
      userId: 'student-a',
      files: Array.from({ length: A_FILES }, (_, i) => file(`school A ${i}`)),
    });
    assert.equal(sentA.status, 200, sentA.body);
    await eventually(
      () => lmsA.platform.heldReports() >= aPlaces,
      `LMS A's reports did not take ${aPlaces} places`,
      60_000,
      50,
    );
    const started = Date.now();
    const sentB = await lmsB.platform.submitToActivity({
      activityId: ACTIVITY_B.id,
      userId: 'student-b',
      files: [file('school B')],
    });
    assert.equal(sentB.status, 200, sentB.body);
    const assetB = sentB.assets[0]!.asset_id;
    const firstOfB = () =>
      lmsB.platform
        .assetReportLog()
        .find((entry) => (entry.body as { assetId?: string } | null)?.assetId === assetB && entry.status === 201);
    // Far past the deadline, so that the figure is measured on main too.
    await eventually(() => firstOfB() !== undefined, 'LMS B got no report at all', 120_000, 50);
    // A's reports were still held all along: B did not just wait for them to end.
    assert.ok(lmsA.platform.heldReports() > 0, "A's reports are still being held");
    return { firstReportMs: firstOfB()!.at - started, mostOfA };
  } finally {
    clearInterval(watch);
  }
}

/** Closes both LMSs. */
export async function closeSchools(schools: School | undefined): Promise<void> {
  schools?.lmsA.platform.setFaults({});
  await schools?.lmsA.close();
  await schools?.lmsB.close();
}
