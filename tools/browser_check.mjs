// Browser check of the template page (`hexproof templates show --html OUT`), issue 28.
//
// Loads the page in headless Chromium (Debian's `chromium`) through puppeteer-core, and
// reports as JSON: load time, console errors and warnings, page errors, failed requests,
// figures laid out with an empty box, records or entries without a figure, in-page links
// to missing ids, and the page height. Exit 1 when any of those lists is not empty.
// Screenshots of the named cards (element ids, e.g. pub-hexwiki-VI1a) go to OUTDIR.
//
// Not used by the build or the tests (CI has no browser). Set-up, outside the repository:
//   apt-get install -y chromium
//   mkdir /tmp/pp && cd /tmp/pp && npm init -y && npm install puppeteer-core@23
//   cp tools/browser_check.mjs /tmp/pp/ && node /tmp/pp/browser_check.mjs PAGE.html OUTDIR [ID ...]
// (ES modules resolve `puppeteer-core` from the script's folder, hence the copy).
// CHROMIUM=PATH picks another browser.
import puppeteer from 'puppeteer-core';

const [, , pagePath, outdir, ...ids] = process.argv;
if (!pagePath || !outdir) {
  console.error('usage: browser_check.mjs PAGE.html OUTDIR [ID ...]');
  process.exit(2);
}
const browser = await puppeteer.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--no-sandbox'],
});
const page = await browser.newPage();
const problems = [];
page.on('console', (m) => {
  if (m.type() === 'error' || m.type() === 'warn') problems.push(`console ${m.type()}: ${m.text()}`);
});
page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
page.on('requestfailed', (r) => problems.push(`request failed: ${r.url()}`));
await page.setViewport({ width: 1280, height: 900 });
const t0 = Date.now();
await page.goto(new URL('file://' + (pagePath.startsWith('/') ? pagePath : process.cwd() + '/' + pagePath)).href, { waitUntil: 'load' });
const loadMs = Date.now() - t0;
const stats = await page.evaluate(() => {
  const svgs = [...document.querySelectorAll('svg')];
  const emptyFigures = svgs
    .filter((s) => {
      const b = s.getBoundingClientRect();
      return !(b.width > 10 && b.height > 10);
    })
    .map((s) => (s.closest('[id]') || {}).id);
  const cards = [...document.querySelectorAll('[id^="lib-"], [id^="pub-"]')];
  const cardsWithoutFigure = cards.filter((c) => !c.querySelector('svg')).map((c) => c.id);
  const badLinks = [...document.querySelectorAll('a[href^="#"]')]
    .map((a) => a.getAttribute('href'))
    .filter((h) => !document.getElementById(h.slice(1)));
  return { figures: svgs.length, cards: cards.length, emptyFigures, cardsWithoutFigure, badLinks, height: document.body.scrollHeight };
});
console.log(JSON.stringify({ loadMs, ...stats, problems }, null, 1));
for (const id of ids) {
  const el = await page.$(`[id="${id}"]`);
  if (!el) {
    problems.push(`no element with id ${id}`);
    continue;
  }
  await el.screenshot({ path: `${outdir}/${id}.png` });
}
await browser.close();
const bad = problems.length + stats.emptyFigures.length + stats.cardsWithoutFigure.length + stats.badLinks.length;
process.exit(bad ? 1 : 0);
