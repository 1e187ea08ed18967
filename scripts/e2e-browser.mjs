#!/usr/bin/env node
// Opens the dashboard queries of docs/dashboards.md in Prometheus's own web UI, in headless
// Chromium (Debian's package, driven by playwright-core), after the demo's traffic of
// scripts/e2e.sh: checks that each page shows the series a reader should see, and saves a
// screenshot of each.
//
// Environment: E2E_PROM_URL (required); E2E_SCREENSHOT_DIR (where the PNGs go, required);
// E2E_CHROMIUM (default /usr/bin/chromium); E2E_TIMEOUT_S (per page, default 60).
/* global document -- the callbacks given to waitForFunction and evaluate run in the page */
import { mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const PROM = process.env.E2E_PROM_URL.replace(/\/$/, '');
const outDir = process.env.E2E_SCREENSHOT_DIR;
const timeout = Number(process.env.E2E_TIMEOUT_S || 60) * 1000;

const blocks = [
  ...readFileSync(join(root, 'docs/dashboards.md'), 'utf8').matchAll(/```promql\n([\s\S]*?)```/g),
].map((m) => m[1].trim());
const query = (...needles) => {
  const q = blocks.find((b) => needles.every((n) => b.includes(n)));
  if (!q) throw new Error(`docs/dashboards.md has no promql block with ${needles.join(' + ')}`);
  return q;
};

// tab 0 = Graph (the legend lists each series), 1 = Console (a table of series and values).
const pages = [
  {
    file: 'prometheus-failures-by-error-type.png',
    what: 'failures by tool, error.type and tool.error_kind (table)',
    expr: query('traces_span_metrics_calls_total', 'by (gen_ai_tool_name, error_type, tool_error_kind)'),
    tab: 1,
    expect: [
      '{error_type="503",gen_ai_tool_name="get_stock_quote",tool_error_kind="transient"}',
      '{error_type="timeout",gen_ai_tool_name="fetch_news",tool_error_kind="timeout"}',
      '{error_type="429",gen_ai_tool_name="search_web",tool_error_kind="rate_limit"}',
    ],
  },
  {
    file: 'prometheus-failure-share-by-tool.png',
    what: 'share of failed calls by tool (graph)',
    expr: query('traces_span_metrics_calls_total', 'by (service_name, gen_ai_tool_name)', ' or'),
    tab: 0,
    // get_time never fails: its 0 line is there too.
    expect: ['gen_ai_tool_name="get_stock_quote"', 'gen_ai_tool_name="get_time"'],
  },
  {
    file: 'prometheus-monitor-error-rate.png',
    what: "the Monitor tab's error rate per operation (graph)",
    expr: query('span_kind="SPAN_KIND_INTERNAL"', 'by (service_name, span_name)'),
    tab: 0,
    expect: ['span_name="execute_tool get_stock_quote"', 'span_name="execute_tool fetch_news"'],
  },
];

mkdirSync(outDir, { recursive: true });
const browser = await chromium.launch({
  executablePath: process.env.E2E_CHROMIUM || '/usr/bin/chromium',
  // Chromium's sandbox refuses to start as root, which CI is.
  args: ['--no-sandbox'],
});
let passed = 0;
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
  for (const p of pages) {
    const url = `${PROM}/classic/graph?${new URLSearchParams({
      'g0.expr': p.expr,
      'g0.tab': String(p.tab),
      'g0.range_input': '1m',
    })}`;
    let detail;
    try {
      await page.goto(url, { timeout });
      await page.waitForFunction(
        (texts) => texts.every((t) => document.body.innerText.includes(t)),
        p.expect,
        { timeout },
      );
      // Let the query box show the whole query in the screenshot.
      await page.evaluate(() => {
        for (const t of document.querySelectorAll('textarea')) t.style.height = `${t.scrollHeight + 4}px`;
      });
      const file = join(outDir, p.file);
      await page.screenshot({ path: file });
      detail = `shows ${p.expect.length} expected series; ${file}`;
      passed++;
      console.log(`  PASS ${p.what}: ${detail}`);
    } catch (e) {
      const text = await page.evaluate(() => document.body.innerText).catch(() => '');
      console.log(`  FAIL ${p.what}: ${e.message.split('\n')[0]}; page text: ${text.slice(0, 600)}`);
    }
  }
} finally {
  await browser.close();
}
console.log(`e2e-browser: ${passed} passed, ${pages.length - passed} failed`);
process.exit(passed === pages.length ? 0 : 1);
