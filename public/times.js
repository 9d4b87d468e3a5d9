// Every page: each time the server wrote on UTC's clock (<time datetime data-clock>) written again on the reader's
// own clock, in the page's language, naming the reader's zone (public/clock.js). Times a page's script puts in later
// (the student's list refreshing itself) are written again as they arrive, and links to files with times in them
// (a receipt) ask for the reader's zone. Without scripts the page reads in UTC and says so.
import { readerClock } from './clock.js';

const clock = readerClock();

function rewrite(root) {
  for (const time of root.querySelectorAll('time[data-clock]')) {
    const text = clock.format(time.dataset.clock, time.dateTime);
    if (time.textContent !== text) time.textContent = text;
    if (time.title) time.title = text;
  }
  // A file the server writes with times in it (a receipt) is asked for on the reader's clock too.
  for (const link of root.querySelectorAll('a[data-reader-zone]')) {
    const url = new URL(link.href);
    if (url.searchParams.get('zone') === clock.timeZone) continue;
    url.searchParams.set('zone', clock.timeZone);
    link.href = url.href;
  }
}

rewrite(document);
document.documentElement.dataset.clock = clock.timeZone;
new MutationObserver((changes) => {
  for (const change of changes)
    for (const node of change.addedNodes) if (node.nodeType === Node.ELEMENT_NODE) rewrite(node.parentNode || node);
}).observe(document.body, { childList: true, subtree: true });
