// What SpeedGrader shows and when, for the Asset Processor: the time from a notice to the "Processing" report beside
// each file (the tool posts it as soon as the notice is kept, before any download), and the time from a file the LMS
// keeps failing to serve to its "Failed / DOWNLOAD_FAILED" report (every try within ASSET_DOWNLOAD_GIVE_UP_SECONDS,
// 10 minutes by default, of the first). The tool runs with its default job settings (retries 30 s apart, doubling)
// on PostgreSQL. The anchor of the first: the notice's own answer, measured in the same run (the tool keeps the notice
// and its first report job in one commit before it answers); the second is held against its documented bound.
import { ms, percentile, scaled, sleep, waitUntil, type Row } from './lib.js';
import { essay, startStack, UNLIMITED } from './stack.js';

const ACTIVITY = { id: 'b1d2e3f4-0000-4000-8000-0000000000c7', title: 'Essay (LMS assignment)' };
const GIVE_UP_S = 600;

export async function reportTimingBench(): Promise<Row[]> {
  const files = scaled(40, 10);
  const stack = await startStack({
    backend: 'postgres',
    role: 'all',
    students: 0,
    admit: UNLIMITED,
    env: { ASSET_PROCESSOR: 'on' },
  });
  try {
    await stack.platform.attach(ACTIVITY);
    const toProcessing: number[] = [];
    const answers: number[] = [];
    for (let n = 1; n <= files; n++) {
      const sentAt = Date.now();
      const sent = await stack.platform.submitToActivity({
        activityId: ACTIVITY.id,
        userId: `student-${n}`,
        filename: `essay-${n}.txt`,
        text: essay(n),
      });
      if (sent.status !== 200) throw new Error(`the tool answered a notice ${sent.status}: ${sent.body}`);
      answers.push(sent.ms);
      const assetId = sent.assetIds[0]!;
      await waitUntil(
        'its Processing report',
        async () => (await stack.platform.reportTimes())[assetId]?.Processing !== undefined,
        60_000,
      );
      toProcessing.push((await stack.platform.reportTimes())[assetId]!.Processing! - sentAt);
      await sleep(100);
    }
    // A file the LMS's file service answers with HTTP 500, every time.
    await stack.platform.setFaults({ assetFailures: 1_000_000 });
    const failingAt = Date.now();
    const failing = await stack.platform.submitToActivity({
      activityId: ACTIVITY.id,
      userId: 'student-failing',
      filename: 'essay-failing.txt',
      text: essay(0),
    });
    const failingId = failing.assetIds[0]!;
    await waitUntil(
      'its Failed report',
      async () => (await stack.platform.reportTimes())[failingId]?.Failed !== undefined,
      (GIVE_UP_S + 120) * 1000,
    );
    const failedAfter = (await stack.platform.reportTimes())[failingId]!.Failed! - failingAt;
    const firstReport = (await stack.platform.reportTimes())[failingId]!.Processing! - failingAt;
    return [
      {
        what: `notice → "Processing" beside the file, p50 / p99 (${files} notices, one at a time)`,
        figure: `${ms(percentile(toProcessing, 50))} / ${ms(percentile(toProcessing, 99))}`,
        anchor: `notice answered: ${ms(percentile(answers, 50))} / ${ms(percentile(answers, 99))}`,
        goal: 'a report as soon as the notice is kept',
      },
      {
        what: 'a file the LMS answers 500: notice → "Processing", → "Failed / DOWNLOAD_FAILED"',
        figure: `${ms(firstReport)}, ${(failedAfter / 1000).toFixed(0)} s`,
        anchor: `bound: ${GIVE_UP_S} s`,
        goal: `≤ ${GIVE_UP_S} s (ASSET_DOWNLOAD_GIVE_UP_SECONDS)`,
      },
    ];
  } finally {
    await stack.close();
  }
}
