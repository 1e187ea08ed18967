#!/usr/bin/env node
// Runs every PromQL query the docs show (```promql blocks of README.md, docs/jaeger.md, docs/dashboards.md and docs/alerts.md)
// against the Prometheus of scripts/e2e.sh, after the demo's traffic. A query passes when it
// returns at least one series with a value above 0 that has every label it groups by (the
// first `by (...)` list, less `le`) set.
//
// Environment: E2E_PROM_URL (required), E2E_TIMEOUT_S (poll deadline, default 120).
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const PROM = process.env.E2E_PROM_URL.replace(/\/$/, '');
const deadline = Date.now() + Number(process.env.E2E_TIMEOUT_S || 120) * 1000;
const DOCS = ['README.md', 'docs/jaeger.md', 'docs/dashboards.md', 'docs/alerts.md'];

const queries = DOCS.flatMap((file) =>
  [...readFileSync(join(root, file), 'utf8').matchAll(/```promql\n([\s\S]*?)```/g)].map((m) => ({
    file,
    query: m[1].trim(),
  })),
);

function groupLabels(query) {
  const by = /\bby\s*\(([^)]*)\)/.exec(query);
  return by
    ? by[1]
        .split(',')
        .map((l) => l.trim())
        .filter((l) => l && l !== 'le')
    : [];
}

async function check({ query }) {
  const labels = groupLabels(query);
  const res = await fetch(`${PROM}/api/v1/query?${new URLSearchParams({ query })}`, {
    signal: AbortSignal.timeout(10_000),
  });
  const body = await res.json();
  if (body.status !== 'success') return { ok: false, detail: `${body.errorType}: ${body.error}` };
  const series = body.data.result;
  const good = series.filter(
    (s) => labels.every((l) => s.metric[l]) && Number(s.value[1]) > 0 && Number.isFinite(Number(s.value[1])),
  );
  const sample = good[0] || series[0];
  const shown = sample ? labels.map((l) => `${l}="${sample.metric[l] ?? ''}"`).join(',') : '';
  return {
    ok: good.length > 0,
    detail: `${series.length} series, ${good.length} with ${labels.join(', ') || 'a value'} > 0; e.g. {${shown}} ${sample ? Number(sample.value[1]).toPrecision(3) : '-'}`,
  };
}

if (queries.length === 0) {
  console.error('e2e-promql: no ```promql blocks found');
  process.exit(1);
}
console.log(`e2e-promql: ${queries.length} documented queries against ${PROM}`);
let passed = 0;
for (const q of queries) {
  const oneLine = q.query.replace(/\s+/g, ' ');
  let r;
  for (;;) {
    r = await check(q).catch((e) => ({ ok: false, detail: `error: ${e.message}` }));
    if (r.ok || Date.now() > deadline) break;
    await new Promise((resolve) => setTimeout(resolve, 2000));
  }
  console.log(`  ${r.ok ? 'PASS' : 'FAIL'} ${q.file}: ${oneLine}\n       ${r.detail}`);
  if (r.ok) passed++;
}
console.log(`e2e-promql: ${passed} passed, ${queries.length - passed} failed`);
process.exit(passed === queries.length ? 0 : 1);
