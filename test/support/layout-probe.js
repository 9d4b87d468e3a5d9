// Evaluated in a page (or a framed page) by test/support/frame-fit.ts: what a reader would see go wrong in the
// page's layout as it is now. Plain browser script; its value is the last expression.
(() => {
  const doc = document.documentElement;
  const width = doc.clientWidth;
  const describe = (el) =>
    el.tagName.toLowerCase() +
    (el.id ? '#' + el.id : '') +
    (el.className && typeof el.className === 'string' ? '.' + el.className.trim().split(/\s+/).join('.') : '') +
    ' "' +
    (el.textContent || '').trim().slice(0, 40) +
    '"';
  const visible = (el) => {
    const style = getComputedStyle(el);
    const rect = el.getBoundingClientRect();
    return style.visibility !== 'hidden' && style.display !== 'none' && rect.width > 1 && rect.height > 1;
  };
  const scrollsSideways = (el) => {
    for (let node = el.parentElement; node && node !== document.body; node = node.parentElement) {
      const overflow = getComputedStyle(node).overflowX;
      if (overflow === 'auto' || overflow === 'scroll') return true;
    }
    return false;
  };

  // A word of a table header laid out on more than one line.
  const brokenHeaders = [];
  for (const th of document.querySelectorAll('th')) {
    if (!visible(th)) continue;
    const walker = document.createTreeWalker(th, NodeFilter.SHOW_TEXT);
    for (let text = walker.nextNode(); text; text = walker.nextNode()) {
      for (const match of text.data.matchAll(/\S+/g)) {
        const range = document.createRange();
        range.setStart(text, match.index);
        range.setEnd(text, match.index + match[0].length);
        const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
        if (lines.size > 1) brokenHeaders.push(match[0]);
      }
    }
  }

  // Something past the page's right or left edge, other than inside a box that scrolls sideways on purpose.
  const cutOff = [];
  for (const el of document.body.querySelectorAll('*')) {
    if (!visible(el) || scrollsSideways(el)) continue;
    const rect = el.getBoundingClientRect();
    if (rect.right > width + 1 || rect.left < -1)
      cutOff.push(describe(el) + ' at ' + Math.round(rect.left) + '..' + Math.round(rect.right) + ' of ' + width);
  }

  // A box with its own vertical scroll bar inside the page (in a fixed-height frame, a scroll inside a scroll).
  const scrollTraps = [];
  for (const el of document.body.querySelectorAll('*')) {
    const overflow = getComputedStyle(el).overflowY;
    if ((overflow === 'auto' || overflow === 'scroll') && el.scrollHeight > el.clientHeight + 1)
      scrollTraps.push(describe(el));
  }

  // The page's end can be scrolled to: after scrolling down as far as it goes, the last thing in <main> is in sight.
  const main = document.querySelector('main');
  const last = main && [...main.children].filter(visible).pop();
  window.scrollTo(0, doc.scrollHeight);
  const endInSight = !last || last.getBoundingClientRect().bottom <= window.innerHeight + 1;
  window.scrollTo(0, 0);

  return {
    brokenHeaders,
    overflowsSideways: doc.scrollWidth > width + 1 ? doc.scrollWidth + ' px wide in ' + width : null,
    cutOff: cutOff.slice(0, 10),
    scrollTraps,
    endInSight,
    height: Math.ceil(doc.getBoundingClientRect().height),
  };
})();
