// The bad-input catalogue's query strings and paths (test/support/bad-inputs.ts): negative, huge and non-numeric
// sorts, pages and sizes, markup and SQL in filters, broken percent-encoding, each with the answer it must get and
// the tool still up.
import assert from 'node:assert/strict';
import {
  ADMIN,
  type Answer,
  answerOf,
  assignmentPath,
  badInputTool,
  catalogue,
  ltiks,
  refusesEscaped,
  shownEscaped,
  tool,
  XSS,
} from '../support/bad-inputs.js';

badInputTool();

// ---- query strings and paths ----

async function get(path: string, who: keyof typeof ltiks | 'admin'): Promise<Answer> {
  const url = new URL(path, tool.url);
  if (who !== 'admin' && !url.searchParams.has('ltik')) url.searchParams.set('ltik', ltiks[who]);
  return answerOf(await fetch(url, { redirect: 'manual', headers: who === 'admin' ? ADMIN : {} }));
}
const dashboard = (query: string) => get(`${assignmentPath}/dashboard?${query}`, 'instructor');
const csv = (answer: Answer) => assert.match(answer.body, /^name,email,status,similarity/);

catalogue('query', [
  { name: 'dashboard sorted by -1', status: 200, send: () => dashboard('sort=-1') },
  {
    name: 'dashboard sorted by a 25-digit number',
    status: 200,
    send: () => dashboard('sort=9999999999999999999999999'),
  },
  {
    name: 'dashboard sorted by SQL',
    status: 200,
    send: () => dashboard(`sort=${encodeURIComponent("name'; DROP TABLE submission; --")}`),
  },
  { name: 'dashboard sorted twice', status: 200, send: () => dashboard('sort=name&sort=similarity&dir=desc&dir=asc') },
  {
    name: 'dashboard with markup in the state filter',
    status: 200,
    send: () => dashboard(`dir=sideways&state=${encodeURIComponent(XSS)}`),
    check: refusesEscaped,
  },
  {
    name: 'dashboard with a negative page and an infinite page size',
    status: 200,
    send: () => dashboard('band=purple&page=-5&pageSize=1e309&limit=NaN'),
  },
  {
    name: 'dashboard with markup in the notice',
    status: 200,
    send: () => dashboard(`notice=${encodeURIComponent(XSS)}&tone=error`),
    check: shownEscaped,
  },
  {
    name: 'dashboard with the session key twice',
    status: 401,
    send: () => get(`${assignmentPath}/dashboard?ltik=${ltiks.instructor}&ltik=${ltiks.instructor}`, 'instructor'),
  },
  { name: 'a query string of 20 KB', status: 431, send: () => dashboard(`sort=${'x'.repeat(20_000)}`) },
  {
    name: 'CSV with a negative sort and SQL in the filter',
    status: 200,
    send: () => get(`${assignmentPath}/export.csv?sort=-1&state=${encodeURIComponent("' OR 1=1 --")}`, 'instructor'),
    check: csv,
  },
  {
    name: 'CSV with markup in the band',
    status: 200,
    send: () => get(`${assignmentPath}/export.csv?band=${encodeURIComponent(XSS)}&limit=-1`, 'instructor'),
    check: csv,
  },
  {
    name: 'admin page with a negative page and an infinite size',
    status: 200,
    send: () => get('/admin?page=-1&size=1e309&sort=%00', 'admin'),
  },
  {
    name: "a student's status with a negative limit",
    status: 200,
    send: () => get(`${assignmentPath}/my-submissions?limit=-1&offset=NaN`, 'student'),
    check: (answer) => assert.ok(Array.isArray((JSON.parse(answer.body) as { submissions: unknown }).submissions)),
  },
  {
    name: 'the history of a submission id that is not one',
    status: 404,
    send: () => get(`${assignmentPath}/submissions/1%20OR%201=1/history`, 'instructor'),
  },
  {
    name: 'the receipt of a submission id that is not one',
    status: 404,
    send: () => get(`${assignmentPath}/submissions/..%2F..%2Fetc/receipt`, 'student'),
  },
  {
    name: 'a report of an unknown kind',
    status: 404,
    send: () => get('/reports/00000000-0000-4000-8000-000000000000/evil', 'student'),
  },
  {
    name: 'a report of a submission id that is not one',
    status: 404,
    send: () => get('/reports/x/similarity', 'student'),
  },
  {
    name: 'a report link with a malformed signature',
    status: 404,
    send: () => get('/reports/00000000-0000-4000-8000-000000000000/similarity/file?expires=-1&signature=x', 'admin'),
  },
  {
    name: 'a report link with a wrong signature',
    status: 403,
    send: () =>
      get(
        `/reports/00000000-0000-4000-8000-000000000000/similarity/file?expires=9999999999&signature=${'A'.repeat(43)}`,
        'admin',
      ),
  },
  {
    name: 'a path with broken percent-encoding',
    status: 404,
    send: () => get(`${assignmentPath}/%E0%A4%A/dashboard`, 'instructor'),
  },
]);
