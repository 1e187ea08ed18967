#!/usr/bin/env node
// The alert rules of stack/alerts/tool-errors.rules.yml in the Prometheus of scripts/e2e.sh, after
// the demo's traffic: through Prometheus's API (/api/v1/alerts), the demo's 401 (read_inbox, kind
// auth) fires ToolErrorsAuth at once and its 429 with Retry-After (search_web, kind rate_limit, every
// call) fires ToolErrorsRateLimitFastBurn once its `for:` has passed, each once, from the package's
// own metrics (the demo exports them, so its span metrics raise nothing), with the severity,
// summary, description and runbook_url of the rules; the quiet tools (get_time, convert_currency)
// fire nothing. Then, in headless Chromium, Prometheus's Alerts page shows both rules firing.
//
// Environment: E2E_PROM_URL (required); OTEL_SERVICE_NAME (default otel-tool-errors-demo);
// E2E_ALERT_TIMEOUT_S (how long to wait for the alerts, default 240: the burn alert's `for:` is
// 2m); E2E_SCREENSHOT_DIR (where prometheus-alerts.png goes, required); E2E_CHROMIUM (default
// /usr/bin/chromium).
/* global document -- the callbacks given to waitForFunction and evaluate run in the page */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

const PROM = process.env.E2E_PROM_URL.replace(/\/$/, '');
const service = process.env.OTEL_SERVICE_NAME || 'otel-tool-errors-demo';
const deadline = Date.now() + Number(process.env.E2E_ALERT_TIMEOUT_S || 240) * 1000;
const outDir = process.env.E2E_SCREENSHOT_DIR;

const expected = [
  { alertname: 'ToolErrorsAuth', tool: 'read_inbox', kind: 'auth', severity: 'critical' },
  { alertname: 'ToolErrorsRateLimitFastBurn', tool: 'search_web', kind: 'rate_limit', severity: 'warning' },
];
const quietTools = ['get_time', 'convert_currency'];

async function alerts() {
  const res = await fetch(`${PROM}/api/v1/alerts`, { signal: AbortSignal.timeout(10_000) });
  const body = await res.json();
  if (body.status !== 'success') throw new Error(`/api/v1/alerts: ${JSON.stringify(body).slice(0, 300)}`);
  return body.data.alerts.filter((a) => a.labels.exported_job === service);
}

function checkOne(all, want) {
  const mine = all.filter(
    (a) => a.labels.alertname === want.alertname && a.labels.gen_ai_tool_name === want.tool,
  );
  if (mine.length === 0) return `${want.alertname} for ${want.tool}: not there yet`;
  if (mine.length > 1)
    return `${want.alertname} for ${want.tool}: ${mine.length} alerts (one per failure expected)`;
  const [a] = mine;
  const problems = [];
  if (a.state !== 'firing') problems.push(`state ${a.state}`);
  if (a.labels.tool_error_kind !== want.kind) problems.push(`tool_error_kind=${a.labels.tool_error_kind}`);
  if (a.labels.severity !== want.severity) problems.push(`severity=${a.labels.severity}`);
  if (a.labels.service !== service) problems.push(`service=${a.labels.service}`);
  if (a.labels.source !== 'tool_metrics')
    problems.push(`source=${a.labels.source} (the demo exports its own metrics)`);
  if (!a.annotations.summary?.includes(want.tool))
    problems.push(`summary ${JSON.stringify(a.annotations.summary)}`);
  if (!a.annotations.description?.includes(`kind ${want.kind}`))
    problems.push(`description ${JSON.stringify(a.annotations.description)}`);
  if (
    !/^https?:\/\/.+\/docs\/alerts\.md#/.test(a.annotations.runbook_url ?? '') ||
    !a.annotations.runbook_url.endsWith(`#${want.kind}`)
  )
    problems.push(`runbook_url ${a.annotations.runbook_url}`);
  return problems.length ? `${want.alertname} for ${want.tool}: ${problems.join(', ')}` : undefined;
}

let failed = 0;
let last;
for (;;) {
  let problems;
  try {
    const all = await alerts();
    problems = expected.map((w) => checkOne(all, w)).filter(Boolean);
    const noisy = all.filter((a) => quietTools.includes(a.labels.gen_ai_tool_name));
    if (noisy.length)
      problems.push(`alerts for tools that never fail: ${noisy.map((a) => a.labels.alertname).join(', ')}`);
    last = all;
  } catch (e) {
    problems = [`error: ${e.message}`];
  }
  if (problems.length === 0) break;
  if (Date.now() > deadline) {
    for (const p of problems) console.log(`  FAIL ${p}`);
    console.log(
      `  alerts of ${service}: ${JSON.stringify((last ?? []).map((a) => [a.labels.alertname, a.labels.gen_ai_tool_name, a.state]))}`,
    );
    failed = problems.length;
    break;
  }
  await new Promise((r) => setTimeout(r, 2000));
}
if (!failed) {
  for (const w of expected)
    console.log(
      `  PASS ${w.alertname}{gen_ai_tool_name="${w.tool}",tool_error_kind="${w.kind}"} firing, severity ${w.severity}, once, from tool_metrics`,
    );
  const firing = last
    .filter((a) => a.state === 'firing')
    .map((a) => `${a.labels.alertname}/${a.labels.gen_ai_tool_name}`);
  console.log(`  firing for ${service}: ${firing.join(', ')}`);
}

// ---- Prometheus's Alerts page, in headless Chromium ----
let pagePassed = false;
if (!failed) {
  mkdirSync(outDir, { recursive: true });
  const browser = await chromium.launch({
    executablePath: process.env.E2E_CHROMIUM || '/usr/bin/chromium',
    args: ['--no-sandbox'],
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
    // Prometheus 3 serves its Alerts page at /alerts; Debian's 2.42 build, only the classic one.
    const alertsPath =
      (await fetch(`${PROM}/alerts`).then((r) => r.status)) === 404 ? '/classic/alerts' : '/alerts';
    await page.goto(`${PROM}${alertsPath}`, { timeout: 60_000 });
    // Each rule shows as "<name> (<n> active)" under its group (rules file and group name).
    const names = expected.map((w) => w.alertname);
    await page.waitForFunction(
      (ns) =>
        document.body.innerText.includes('tool-errors-auth') &&
        ns.every((n) => new RegExp(`${n} \\(\\d+ active\\)`).test(document.body.innerText)),
      names,
      { timeout: 60_000 },
    );
    // Open the two rules, as someone looking into them would, and find the demo's tools firing.
    for (const n of names) await page.getByText(n, { exact: true }).first().click();
    await page.waitForFunction(
      (tools) =>
        tools.every(
          (t) =>
            document.body.innerText.includes(`gen_ai_tool_name="${t}"`) ||
            document.body.innerText.includes(`gen_ai_tool_name=${t}`),
        ) && /firing/i.test(document.body.innerText),
      expected.map((w) => w.tool),
      { timeout: 60_000 },
    );
    await page.evaluate(() => document.scrollingElement?.scrollTo(0, 0));
    const file = join(outDir, 'prometheus-alerts.png');
    await page.screenshot({ path: file, fullPage: false });
    pagePassed = true;
    console.log(
      `  PASS Prometheus's Alerts page: ${names.join(' and ')} active, firing for ${expected.map((w) => w.tool).join(', ')}; ${file}`,
    );
  } catch (e) {
    const text = await browser
      .contexts()[0]
      ?.pages()[0]
      ?.evaluate(() => document.body.innerText)
      .catch(() => '');
    console.log(
      `  FAIL Prometheus's Alerts page: ${e.message.split('\n')[0]}; page text: ${(text || '').slice(0, 800)}`,
    );
  } finally {
    await browser.close();
  }
}
const total = expected.length + 2;
const passed = failed ? 0 : expected.length + 1 + (pagePassed ? 1 : 0);
console.log(`e2e-alerts: ${passed} passed, ${total - passed} failed`);
process.exit(passed === total ? 0 : 1);
