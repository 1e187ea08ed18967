#!/usr/bin/env node
// Opens Jaeger's own web pages in headless Chromium (Debian's package, driven by playwright-core)
// after the demo's traffic of scripts/e2e.sh, does what a user does on each, checks what the page
// shows against the trace data, and saves a screenshot of each:
//   1. Search: the service and a tag filter typed into the form, for each jaegerUi.search entry of
//      the expectations file. The result list must be exactly the service's traces that have a
//      span with that attribute, and leave out at least one trace of the service.
//   2. Trace: the largest result of the last search opened; the tool span has the error icon and
//      its tags show the failure's attributes; the span under it is the failed HTTP client span.
//   3. Monitor: opened with service and spanKind=internal in the URL (which Jaeger UI reads from
//      v2.20 on; jaegerUi.monitorKindFromUrl says what the pinned one shows), then span kind
//      Internal picked in the selector as a user does, then every execute_tool row: a non-zero
//      error rate for the failing tools, none for the succeeding ones.
//
// Environment: E2E_JAEGER_URL and E2E_SCREENSHOT_DIR (required); E2E_CHROMIUM (default
// /usr/bin/chromium); E2E_TIMEOUT_S (per page, default 60); E2E_EXPECT (default
// scripts/e2e-expect.json); OTEL_SERVICE_NAME (overrides the file's service).
/* global document, window -- the callbacks given to waitForFunction and evaluate run in the page */
import { mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = dirname(fileURLToPath(import.meta.url));
const JAEGER = process.env.E2E_JAEGER_URL.replace(/\/$/, '');
const outDir = process.env.E2E_SCREENSHOT_DIR;
const timeout = Number(process.env.E2E_TIMEOUT_S || 60) * 1000;
const expectFile = process.env.E2E_EXPECT || join(here, 'e2e-expect.json');
const expect = JSON.parse(readFileSync(expectFile, 'utf8'));
const service = process.env.OTEL_SERVICE_NAME || expect.service;
const ui = expect.jaegerUi;
if (!ui) {
  console.log(`e2e-jaeger-ui: skipped: ${expectFile} has no "jaegerUi" section saying what to check`);
  process.exit(0);
}
const failingTool = (tool) => {
  const f = expect.failing.find((x) => x.tool === tool);
  if (!f) throw new Error(`${expectFile}: jaegerUi names ${tool}, which is not among "failing"`);
  return f;
};
const op = (tool) => `execute_tool ${tool}`;
const str = (v) => (v === undefined || v === null ? undefined : String(v));

// ---- The trace data, from Jaeger's API: what each page should show ----
async function serviceTraces() {
  const q = new URLSearchParams({ service, lookback: '1h', limit: '1000' });
  const res = await fetch(`${JAEGER}/api/traces?${q}`, { signal: AbortSignal.timeout(10_000) });
  if (!res.ok) throw new Error(`GET /api/traces: HTTP ${res.status}`);
  return (await res.json()).data;
}
const tag = (span, key) => str(span.tags.find((t) => t.key === key)?.value);
const hasTag = (trace, key, value) => trace.spans.some((s) => tag(s, key) === value);

// ---- Page helpers ----
const bodyText = (page) => page.evaluate(() => document.body.innerText);
// antd Select, as a user picks an option: unless it already shows it, open it, type to filter,
// click the option. The list must then close (Escape if it stays open), so that screenshots show
// the page, not the list.
async function pick(page, select, label) {
  if ((await select.innerText()).trim() === label) return;
  await select.click();
  await page.keyboard.type(label);
  const open = page.locator('.ant-select-dropdown:visible');
  await open
    .locator('.ant-select-item-option')
    .filter({ hasText: new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) })
    .click();
  await open.waitFor({ state: 'hidden', timeout: 3000 }).catch(async () => {
    await page.keyboard.press('Escape');
    await open.waitFor({ state: 'hidden', timeout });
  });
  const shown = (await select.innerText()).trim();
  if (shown !== label) throw new Error(`picked '${label}', the selector shows '${shown}'`);
}
async function shot(page, file) {
  const path = join(outDir, file);
  await page.screenshot({ path, animations: 'disabled' });
  return path;
}

// ---- 1. Search ----
async function checkSearch(page, entry, traces) {
  const f = failingTool(entry.tool);
  const value = str(f.attributes[entry.by]);
  const tags = `${entry.by}=${value}`;
  const want = new Set(traces.filter((t) => hasTag(t, entry.by, value)).map((t) => t.traceID));
  const leftOut = traces.length - want.size;
  if (!want.size) throw new Error(`no trace of ${service} has ${tags} (API)`);
  if (!leftOut) throw new Error(`every trace of ${service} has ${tags}: nothing for the search to leave out`);
  for (const t of traces.filter((x) => want.has(x.traceID))) {
    const s = t.spans.find((x) => x.operationName === op(f.tool) && tag(x, entry.by) === value);
    if (!s) throw new Error(`trace ${t.traceID} has ${tags}, but not on '${op(f.tool)}'`);
  }

  await page.goto(`${JAEGER}/search`, { timeout });
  const field = (label) =>
    page.locator('.ant-form-item').filter({ has: page.locator('.ant-form-item-label', { hasText: label }) });
  await pick(page, field('Service').locator('.ant-select'), service);
  await field('Tags').locator('input').fill(tags);
  await page.locator('[data-test="submit-btn"]').click();
  await page.waitForSelector('.ResultItem, [data-test="no-results"]', { timeout });
  const shown = await page
    .locator('.ResultItem a[href*="/trace/"]')
    .evaluateAll((as) => [
      ...new Set(as.map((a) => a.getAttribute('href').match(/\/trace\/([0-9a-f]+)/)[1])),
    ]);
  const missing = [...want].filter((id) => !shown.includes(id));
  const extra = shown.filter((id) => !want.has(id));
  if (missing.length || extra.length) {
    throw new Error(
      `results differ from the ${want.size} trace(s) with ${tags}: missing ${missing.join(',') || '-'}, extra ${extra.join(',') || '-'}`,
    );
  }
  const withErrorTag = await page
    .locator('.ResultItem')
    .filter({ hasText: /\d+ Errors?/ })
    .count();
  if (withErrorTag !== shown.length) {
    throw new Error(`${shown.length - withErrorTag} result(s) without the red "N Errors" tag`);
  }
  return { tags, shown, leftOut };
}

// ---- 2. Trace ----
// Rows are absolutely positioned (a virtual list): their order on screen is their `top`.
async function rowsInOrder(page) {
  const rows = page.locator('.VirtualizedTraceView--row');
  const order = await rows.evaluateAll((rs) =>
    rs
      .map((r, i) => ({
        i,
        top: parseFloat(r.style.top),
        name: r.querySelector('.span-row .endpoint-name')?.innerText.trim(),
      }))
      .filter((r) => r.name !== undefined)
      .sort((a, b) => a.top - b.top),
  );
  return order.map((r) => ({ name: r.name, row: rows.nth(r.i).locator('.span-row') }));
}
// Opens a span's details and their Tags table, as a user reads them; returns the tags shown.
async function openTags(page, row, name) {
  await row.locator('.span-name').click();
  const detail = page.locator('.detail-row').filter({ has: page.locator('h2', { hasText: name }) });
  await detail.locator('.AccordianKeyValues--header', { hasText: 'Tags' }).click();
  const tags = detail.locator('.KeyValueTable--row');
  await tags.first().waitFor({ timeout });
  return Object.fromEntries(
    await tags.evaluateAll((trs) =>
      trs.map((tr) => [tr.cells[0].innerText.trim(), tr.cells[1].innerText.trim()]),
    ),
  );
}
async function checkTrace(page, traceId, traces) {
  const f = failingTool(ui.trace.tool);
  const data = traces.find((t) => t.traceID === traceId);
  const toolSpan = data.spans.find((s) => s.operationName === op(f.tool));
  const children = data.spans.filter((s) =>
    s.references.some((r) => r.refType === 'CHILD_OF' && r.spanID === toolSpan.spanID),
  );
  if (children.length !== 1)
    throw new Error(`'${op(f.tool)}' has ${children.length} child spans (API), not 1`);
  const child = children[0];

  await page.locator(`.ResultItem a[href*="/trace/${traceId}"]`).first().click();
  await page.locator('.span-row').first().waitFor({ timeout });
  // Room for the screenshot: the summary folded away, the span names column widened.
  await page.locator('.TracePageHeader--titleLink').click();
  const grip = await page.locator('.VerticalResizer--dragger').boundingBox();
  await page.mouse.move(grip.x + 1, grip.y + 300);
  await page.mouse.down();
  await page.mouse.move(grip.x + 160, grip.y + 300, { steps: 10 });
  await page.mouse.up();

  const rows = await rowsInOrder(page);
  const at = rows.findIndex((r) => r.name === op(f.tool));
  if (at < 0) throw new Error(`no row '${op(f.tool)}' in the trace view`);
  // Children follow their parent: the row under the tool span must be its one child.
  if (rows[at + 1]?.name !== child.operationName) {
    throw new Error(
      `the row under '${op(f.tool)}' is '${rows[at + 1]?.name}', not its child '${child.operationName}'`,
    );
  }
  const bad = [];
  for (const [what, r] of [
    ['tool span', rows[at]],
    ['HTTP child span', rows[at + 1]],
  ]) {
    if (!(await r.row.locator('.SpanBarRow--errorIcon').count())) bad.push(`the ${what} has no error icon`);
  }
  const toolTags = await openTags(page, rows[at].row, op(f.tool));
  // The details opened above push the child down: find its row again.
  const childRow = (await rowsInOrder(page))[at + 1];
  const childTags = await openTags(page, childRow.row, child.operationName);
  for (const [k, v] of Object.entries({ ...f.attributes, error: true, 'otel.status_code': 'ERROR' }))
    if (toolTags[k] !== String(v)) bad.push(`tool span ${k}=${toolTags[k]} (want ${v})`);
  for (const [k, v] of Object.entries({ ...ui.trace.httpChild, error: true, 'otel.status_code': 'ERROR' }))
    if (childTags[k] !== String(v)) bad.push(`HTTP child ${k}=${childTags[k]} (want ${v})`);
  if (bad.length) throw new Error(bad.join('; '));

  // Scroll the tool span's row up to just under the page's sticky header.
  await rows[at].row.evaluate((el) => {
    const header = document.querySelector('.TimelineHeaderRow');
    window.scrollBy(0, el.getBoundingClientRect().top - (header ? header.getBoundingClientRect().bottom : 0));
  });
  return { toolTags, childTags, child: child.operationName };
}

// ---- 3. Monitor ----
const opRows = (page) =>
  page.locator('.ant-table-row').evaluateAll((trs) => {
    const headers = [...document.querySelectorAll('.ant-table-thead th')].map((th) => th.innerText.trim());
    const col = headers.indexOf('Error rate');
    return trs.map((tr) => [
      tr.cells[0].innerText.trim(),
      col < 0 ? undefined : tr.cells[col].innerText.trim(),
    ]);
  });
// The operations table has loaded: rows or its empty placeholder, and no spinner.
const tableLoaded = (page) =>
  page.waitForFunction(
    () =>
      document.querySelector('.ant-table-row, .ant-table-placeholder') &&
      !document.querySelector('.ant-spin-spinning'),
    null,
    { timeout },
  );
async function checkMonitor(page) {
  // A link with the service and the span kind in the URL, as Jaeger UI 2.20 and later read it.
  await page.goto(`${JAEGER}/monitor?${new URLSearchParams({ service, spanKind: 'internal' })}`, { timeout });
  const kindSelect = page.locator('.span-kind-selector');
  await kindSelect.waitFor({ timeout });
  await tableLoaded(page);
  const kindFromUrl = (await kindSelect.innerText()).trim();
  if (kindFromUrl !== ui.monitorKindFromUrl) {
    throw new Error(
      `after the link with spanKind=internal the span kind shows '${kindFromUrl}', not '${ui.monitorKindFromUrl}': update docs/jaeger.md, docs/dashboards.md and jaegerUi.monitorKindFromUrl`,
    );
  }
  const before = (await opRows(page)).map(([name]) => name);
  if (kindFromUrl !== 'Internal' && before.some((n) => n.startsWith('execute_tool '))) {
    throw new Error(`span kind ${kindFromUrl} already lists tool operations: ${before.join(', ')}`);
  }
  await pick(page, page.locator('.select-a-service-input'), service);
  await pick(page, kindSelect, 'Internal');

  const failing = expect.failing.map((f) => op(f.tool));
  const succeeding = expect.succeeding.map(op);
  await page.waitForFunction(
    (names) => {
      const first = [...document.querySelectorAll('.ant-table-row')].map((r) => r.cells[0].innerText.trim());
      return names.every((n) => first.includes(n));
    },
    [...failing, ...succeeding],
    { timeout },
  );
  await tableLoaded(page);
  const rates = new Map(await opRows(page));
  const percent = (text) => {
    const m = /^(\d+(?:\.\d+)?)%$/.exec(text ?? '');
    return m ? Number(m[1]) : undefined;
  };
  const bad = [];
  for (const name of failing) {
    if (!(percent(rates.get(name)) > 0)) bad.push(`${name} error rate '${rates.get(name)}' (want > 0%)`);
  }
  for (const name of succeeding) {
    if (!ui.monitorZeroRates.includes(rates.get(name))) {
      bad.push(`${name} error rate '${rates.get(name)}' (want ${ui.monitorZeroRates.join(' or ')})`);
    }
  }
  if (bad.length) throw new Error(bad.join('; '));
  return {
    kindFromUrl,
    before,
    rates: Object.fromEntries([...failing, ...succeeding].map((n) => [n, rates.get(n)])),
  };
}

// ---- main ----
mkdirSync(outDir, { recursive: true });
const browser = await chromium.launch({
  executablePath: process.env.E2E_CHROMIUM || '/usr/bin/chromium',
  // Chromium's sandbox refuses to start as root, which CI is.
  args: ['--no-sandbox'],
});
const results = [];
async function step(what, page, fn) {
  try {
    const detail = await fn();
    results.push(true);
    console.log(`  PASS ${what}: ${detail}`);
  } catch (e) {
    results.push(false);
    const text = await bodyText(page).catch(() => '');
    console.log(
      `  FAIL ${what}: ${e.message.split('\n')[0]}; page text: ${text.slice(0, 600).replace(/\s+/g, ' ')}`,
    );
  }
}
try {
  const traces = await serviceTraces();
  // A new context is a first visit: no span kind or service remembered from an earlier one.
  const context = await browser.newContext({ viewport: { width: 1280, height: 1000 } });
  const page = await context.newPage();
  await page.goto(`${JAEGER}/search`, { timeout });
  if ((await bodyText(page)).includes('This is not the Jaeger UI')) {
    throw new Error('Jaeger serves its placeholder page: is extensions.jaeger_query.ui.assets_path set?');
  }
  let last;
  for (const [i, entry] of ui.search.entries()) {
    await step(`Search ${entry.by}=${failingTool(entry.tool).attributes[entry.by]}`, page, async () => {
      last = await checkSearch(page, entry, traces);
      const file = i === 0 ? `; ${await shot(page, 'jaeger-search-error-type.png')}` : '';
      return `${last.shown.length} result(s), exactly the traces with ${last.tags}; ${last.leftOut} trace(s) of the service left out${file}`;
    });
  }
  await step(`Trace: the failed '${op(ui.trace.tool)}' span and its HTTP child`, page, async () => {
    if (!last?.shown.length) throw new Error('no search result to open');
    // The agent's whole run, where the tool span sits among the others: the largest trace.
    const spans = (id) => traces.find((t) => t.traceID === id).spans.length;
    const traceId = [...last.shown].sort((a, b) => spans(b) - spans(a))[0];
    // Tall enough for the tool span's tags and the top of its child's.
    await page.setViewportSize({ width: 1280, height: 1200 });
    const r = await checkTrace(page, traceId, traces);
    const file = await shot(page, 'jaeger-trace-failed-tool.png');
    await page.setViewportSize({ width: 1280, height: 1000 });
    const list = (tags, keys) => keys.map((k) => `${k}=${tags[k]}`).join(' ');
    return `error icon on both; tool span ${list(r.toolTags, Object.keys(failingTool(ui.trace.tool).attributes))}; child '${r.child}' ${list(r.childTags, Object.keys(ui.trace.httpChild))}; ${file}`;
  });
  await step('Monitor: span kind Internal picked, error rate per execute_tool operation', page, async () => {
    const r = await checkMonitor(page);
    const file = await shot(page, 'jaeger-monitor-internal.png');
    return `the link's spanKind=internal left the selector on ${r.kindFromUrl} (rows: ${r.before.join(', ') || 'none'}); Internal picked; error rates ${JSON.stringify(r.rates)}; ${file}`;
  });
} finally {
  await browser.close();
}
const passed = results.filter(Boolean).length;
console.log(`e2e-jaeger-ui: ${passed} passed, ${results.length - passed} failed`);
process.exit(results.length && passed === results.length ? 0 : 1);
