// The worker process killed (SIGKILL) twenty times at random moments, in the middle of uploads and of grade posts,
// and started again each time, while students keep submitting: every paper reaches the service exactly once, is
// scored once, and every student's cell holds their score. Web and workers are separate processes on PostgreSQL.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { backend } from '../support/db.js';
import { essay, recordFigures, settle, sleep, tally } from '../support/hardening.js';
import type { ToolProcess } from '../support/process.js';
import { startSplitTool, type SplitTool } from '../support/split.js';

const KILLS = 20;
const NEW_PAPERS_PER_ROUND = 2;
const onPglite = backend === 'pglite' ? 'separate web and worker processes need PostgreSQL' : false;

let split: SplitTool;
let worker: ToolProcess | undefined;

before(async () => {
  if (onPglite) return;
  split = await startSplitTool({ clientId: 'crash-course' });
});
after(async () => {
  if (onPglite) return;
  await split?.close();
});

/** Jobs of each kind that the worker started at `since` is running now. */
async function runningSince(since: Date): Promise<{ uploads: number; grades: number }> {
  const { rows } = await split.database.pool.query<{ name: string; n: string }>(
    "SELECT name, count(*) AS n FROM pgboss.job WHERE state = 'active' AND started_on >= $1 GROUP BY name",
    [since],
  );
  const count = (name: string) => Number(rows.find((row) => row.name === name)?.n ?? 0);
  return { uploads: count('submission-upload'), grades: count('grade-post') };
}

test(
  'the worker killed twenty times mid-upload and mid-grade: nothing lost, nothing sent twice, every score right',
  { skip: onPglite, timeout: 420_000 },
  async (t) => {
    const { sandbox, course, database } = split;
    const papersBefore = sandbox.stats().papers;
    // Slow answers, upload answers held back after the paper is stored, and a slow gradebook: kills land between the
    // service storing a paper and the tool recording it, and between the gradebook taking a score and the tool knowing.
    sandbox.setFaults({ slowMs: 150, uploadAnswerDelayMs: 600 });
    course.lms.platform.setFaults({ agsDelayMs: 700 });
    const ids: string[] = [];
    const killedWhile: Array<{ uploads: number; grades: number }> = [];
    for (let round = 0; round < KILLS; round++) {
      ids.push(
        ...(await Promise.all(
          Array.from({ length: NEW_PAPERS_PER_ROUND }, (_, i) =>
            course.submit(`crash-${round}-${i}`, essay(`crash round ${round} student ${i}`)),
          ),
        )),
      );
      const since = (await database.pool.query<{ now: Date }>('SELECT now()')).rows[0]!.now;
      worker = await split.startWorker();
      await sleep(300 + Math.random() * 1500);
      killedWhile.push(await runningSince(since));
      worker.child.kill('SIGKILL');
      await new Promise((resolve) => worker!.child.once('exit', resolve));
    }
    sandbox.setFaults({});
    course.lms.platform.setFaults({});
    worker = await split.startWorker();

    const open = await settle(database.db, ids, 180_000);
    const counts = await tally(database.db, course.lms.platform, ids, sandbox.stats().papers - papersBefore);
    const scoredEvents = await database.db
      .selectFrom('submission_event')
      .select('submission_id')
      .where('submission_id', 'in', ids)
      .where('to_state', '=', 'scored')
      .execute();
    const midUpload = killedWhile.filter((running) => running.uploads > 0).length;
    const midGrade = killedWhile.filter((running) => running.grades > 0).length;
    recordFigures({
      fault: `worker SIGKILLed ${KILLS} times (${midUpload} with an upload running, ${midGrade} with a grade post running)`,
      survived:
        midUpload > 0 &&
        midGrade > 0 &&
        counts.lost === 0 &&
        counts.duplicated === 0 &&
        counts.gradesWrong === 0 &&
        scoredEvents.length === ids.length,
      ...counts,
    });
    t.diagnostic(
      `jobs running at each kill (uploads/grade posts): ${killedWhile.map((running) => `${running.uploads}/${running.grades}`).join(' ')}`,
    );
    t.diagnostic(
      `${counts.submissions} submissions, ${counts.lost} lost, ${counts.duplicated} duplicated, ${counts.gradesWrong} grades wrong, ${counts.repeatedFinalPosts} final scores sent again (same score) after a kill`,
    );
    assert.ok(midUpload > 0, 'no kill landed during an upload');
    assert.ok(midGrade > 0, 'no kill landed during a grade post');
    assert.deepEqual(open, [], 'submissions still on their way');
    assert.equal(counts.duplicated, 0, 'a paper reached the service twice');
    assert.equal(scoredEvents.length, ids.length, 'a submission was scored twice, or not at all');
    assert.equal(counts.gradesWrong, 0, 'a gradebook cell does not hold the score, or another final score was sent');
  },
);
