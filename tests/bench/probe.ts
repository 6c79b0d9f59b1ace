/**
 * The bench's in-page probe, installed in every page as an init script (plain JavaScript, so
 * nothing the Node transpiler adds reaches the page). It times, inside the page:
 *
 *   start(key, { event, check, args, timeoutMs }): from the next `event` (a click or keydown;
 *     its timeStamp, on the page's performance.now() clock) until the DOM satisfies `check`
 *     (tested on every DOM mutation, with a MutationObserver), then until after the next paint
 *     (requestAnimationFrame, then a message: the frame that shows the change has been
 *     produced). Without `event` the clock starts at once. result(key) answers
 *     { toDom, toPaint, eventAt, paintAt } (the *At in epoch milliseconds, for comparing two
 *     pages), or { timeout: true }.
 *   first: set on every navigation to the performance.now() (from navigation start) after the
 *     paint that first satisfies the check named in sessionStorage '__probe.first' ({ check, args },
 *     set by the bench before its reloads; it outlives them in the tab): the warm start's end
 *     (a link card; the calendar's or the dashboard's heading, counters and today's list).
 *     Null while not seen, or when no check is named.
 */
export const probeScript = String.raw`(() => {
  if (window.__probe) return;
  const afterPaint = () =>
    new Promise((resolve) =>
      requestAnimationFrame(() => {
        const channel = new MessageChannel();
        channel.port1.onmessage = () => resolve(performance.now());
        channel.port2.postMessage(0);
      }),
    );
  const items = () => document.querySelectorAll('[data-testid="link-card"], [role="table"][aria-label="Links"] [role="row"]:not(:first-child)');
  const titleOf = (item) => (item.querySelector('a')?.textContent ?? item.textContent ?? '').replace('★', '').trim();
  const checks = {
    hasTitle: (title) => Array.from(items()).some((item) => titleOf(item) === title),
    favorite: (title, expected) => {
      const item = Array.from(items()).find((candidate) => titleOf(candidate) === title);
      return !!item && !!item.querySelector('[aria-label="Favorite"], .text-amber-500') === expected;
    },
    firstTitle: (title) => {
      const first = items()[0];
      if (title === null) return !first && /No matching links/.test(document.body.textContent ?? '');
      return !!first && titleOf(first) === title;
    },
    anyItem: () => items().length > 0,
    /** The calendar screen's first content: its heading, the counters showing these numbers, Today's Tasks with a task. */
    calendar: (pending, completed) => {
      const tasks = document.getElementById('today-tasks')?.parentElement;
      if (!tasks || !tasks.querySelector('input[type="checkbox"]')) return false;
      if (!Array.from(document.querySelectorAll('h1')).some((h) => h.textContent.trim() === 'My Calendar & Tasks')) return false;
      const counters = new Map();
      for (const p of document.querySelectorAll('p')) {
        const label = p.textContent;
        if (label === 'Upcoming Events' || label === 'Pending Tasks' || label === 'Completed') counters.set(label, p.nextElementSibling?.textContent ?? '');
      }
      return /^[0-9]+$/.test(counters.get('Upcoming Events') ?? '') && counters.get('Pending Tasks') === String(pending) && counters.get('Completed') === String(completed);
    },
    /** The dashboard's first content: this heading, the stats grid showing these numbers, Today's Focus with an item. */
    dashboard: (heading, stats) => {
      if (!Array.from(document.querySelectorAll('h1')).some((h) => h.textContent.trim() === heading)) return false;
      const grid = document.querySelector('section[aria-label="Stats"]');
      if (!grid) return false;
      const shown = new Map();
      for (const dt of grid.querySelectorAll('dt')) shown.set(dt.textContent, dt.nextElementSibling?.textContent ?? '');
      if (!Object.entries(stats).every(([label, value]) => shown.get(label) === String(value))) return false;
      const focus = document.getElementById('todays-focus')?.parentElement;
      return !!focus && focus.querySelector('li') !== null;
    },
    /** The dashboard shown (not its skeleton): this heading and the stats grid, whatever its numbers (a first sync may still be bringing rows). */
    dashboardShown: (heading) =>
      Array.from(document.querySelectorAll('h1')).some((h) => h.textContent.trim() === heading) &&
      document.querySelector('section[aria-label="Stats"] dt') !== null,
    /** The calendar grid shows the month starting with this 'YYYY-MM' with at least one item on one of its days. */
    monthShown: (prefix) => {
      const days = Array.from(document.querySelectorAll('section[aria-labelledby="calendar-grid-heading"] [data-day]'));
      const middle = days[Math.floor(days.length / 2)];
      if (!middle || !middle.getAttribute('data-day').startsWith(prefix)) return false;
      return days.some((day) => day.getAttribute('data-day').startsWith(prefix) && !/, 0 items$/.test(day.getAttribute('aria-label') ?? ''));
    },
    /** Upcoming's two lists, each with an item. */
    upcoming: () =>
      ['future-events', 'pending-tasks'].every((id) => document.getElementById(id)?.parentElement?.querySelector('li') != null),
    /** The poll card titled so shows its results: the user's choice marked ('Your vote') and a share of 100.0%. */
    voted: (title) =>
      Array.from(document.querySelectorAll('article')).some(
        (card) =>
          card.querySelector('h3')?.textContent === title &&
          !!card.querySelector('li[aria-current="true"]')?.textContent.includes('Your vote') &&
          card.textContent.includes('100.0%'),
      ),
    /** The calendar grid's agenda (the selected day's items) lists this title. */
    agendaTitle: (title) =>
      Array.from(document.querySelectorAll('section[aria-labelledby="calendar-grid-heading"] li button')).some((b) => b.textContent === title),
    /** A link card with this title shows its preview image, loaded (the link-preview measure). */
    previewShown: (title) =>
      Array.from(items()).some((item) => {
        if (titleOf(item) !== title) return false;
        const image = item.querySelector('img[data-testid="link-image"]');
        return !!image && image.complete && image.naturalWidth > 0;
      }),
    /** The open command palette's group headed so lists this title first. */
    paletteShows: (heading, title) =>
      Array.from(document.querySelectorAll('[role="dialog"] [cmdk-group]')).some(
        (group) =>
          group.querySelector('[cmdk-group-heading]')?.textContent === heading &&
          group.querySelector('[cmdk-item]')?.firstElementChild?.textContent === title,
      ),
    /**
     * The time poll table's slot row (0-based) shows the user's answer pressed, these Yes and If need
     * be counts, and the answer in the user's own grid column (the first voter's).
     */
    slotAnswered: (slot, answer, yes, maybe) => {
      const row = document.querySelectorAll('table tbody tr')[slot];
      if (!row) return false;
      const pressed = row.querySelector('button[aria-pressed="true"]');
      const cells = row.querySelectorAll('td');
      return (
        !!pressed && pressed.textContent === answer &&
        cells[1]?.textContent === String(yes) && cells[2]?.textContent === String(maybe) &&
        cells[3]?.textContent === answer
      );
    },
    /** A live status in the open dialog says this text (Add Link's 'Already saved in …'). */
    dialogStatus: (text) =>
      Array.from(document.querySelectorAll('[role="dialog"] [role="status"]')).some((s) => s.textContent.trim() === text),
  };
  const pending = new Map();
  const probe = {
    start(key, spec) {
      const check = () => checks[spec.check](...(spec.args ?? []));
      pending.set(
        key,
        new Promise((resolve) => {
          let t0 = null;
          let done = false;
          let timer = null;
          const observer = new MutationObserver(() => test());
          // An image that finishes loading changes no DOM: its load event (captured) tests too.
          const onLoad = () => test();
          document.addEventListener('load', onLoad, true);
          const finish = (value) => {
            if (done) return;
            done = true;
            document.removeEventListener('load', onLoad, true);
            observer.disconnect();
            clearTimeout(timer);
            resolve(value);
          };
          const test = () => {
            if (t0 === null || done || !check()) return;
            const t1 = performance.now();
            done = true;
            document.removeEventListener('load', onLoad, true);
            observer.disconnect();
            clearTimeout(timer);
            afterPaint().then((t2) =>
              resolve({ toDom: t1 - t0, toPaint: t2 - t0, eventAt: performance.timeOrigin + t0, paintAt: performance.timeOrigin + t2 }),
            );
          };
          const begin = (at) => {
            t0 = at;
            timer = setTimeout(() => finish({ timeout: true }), spec.timeoutMs ?? 10000);
            test();
          };
          observer.observe(document, { childList: true, subtree: true, characterData: true, attributes: true });
          if (spec.event) window.addEventListener(spec.event, (event) => begin(event.timeStamp), { capture: true, once: true });
          else begin(performance.now());
        }),
      );
    },
    result(key) {
      const found = pending.get(key);
      pending.delete(key);
      return found ?? Promise.reject(new Error('probe: nothing started as ' + key));
    },
    first: null,
  };
  window.__probe = probe;
  let first = null;
  try {
    first = JSON.parse(sessionStorage.getItem('__probe.first') ?? localStorage.getItem('__probe.first') ?? 'null');
  } catch {}
  if (first) {
    const watchFirst = new MutationObserver(() => {
      if (!checks[first.check](...(first.args ?? []))) return;
      watchFirst.disconnect();
      probe.firstInDom = performance.now();
      // Every element of the main content is named for Element Timing before the frame that
      // paints it: the text painted in that frame reports when the frame was presented.
      for (const element of document.querySelectorAll('main, main *')) element.setAttribute('elementtiming', 'probe-first');
      afterPaint().then((t) => {
        probe.first = t;
      });
    });
    watchFirst.observe(document, { childList: true, subtree: true, characterData: true });
    try {
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) {
          if (entry.identifier !== 'probe-first' || entry.name !== 'text-paint' || probe.firstInDom === undefined) continue;
          const at = entry.renderTime || entry.loadTime;
          if (at >= probe.firstInDom) probe.firstPresented = Math.max(probe.firstPresented ?? 0, at);
        }
      }).observe({ type: 'element', buffered: true });
    } catch {}
  }
})();`;
