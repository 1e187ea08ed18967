/**
 * Writes stack/alerts/tool-errors.rules.yml: the Prometheus alerting and recording rules for tool
 * failures, one group per tool.error_kind with the action that kind calls for, from the constants
 * below (docs/alerts.md documents them). Prometheus loads the file in the compose stack and the
 * production tiers; stack/alerts/tool-errors.test.yml tests it with `promtool test rules`
 * (npm run check:stack). test/alerts/alert-rules.test.ts fails when the checked-in file differs
 * from what this writes now.
 *
 *   npm run alerts:generate                                   write the file
 *   npm run alerts:generate -- --check                        exit 1 if the file is stale
 *   npm run alerts:generate -- --runbook-base-url <url> --out <file>
 *                                                             the same rules, runbook links to your copy
 *                                                             of docs/alerts.md, written elsewhere
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { format, resolveConfig } from 'prettier';
import { TOOL_ERROR_KIND_MEANINGS, TOOL_ERROR_KINDS, type ToolErrorKind } from '../src/classify/kinds';

const ROOT = resolve(__dirname, '..');
export const ALERT_RULES_FILE = join(ROOT, 'stack/alerts/tool-errors.rules.yml');
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

/**
 * Where docs/alerts.md is published; each alert's runbook_url is this plus `#<kind>`. The default
 * is the copy of docs/alerts.md in this release's npm package.
 */
export const RUNBOOK_BASE_URL = `https://unpkg.com/otel-tool-errors@${VERSION}/docs/alerts.md`;

/**
 * The label that names the service on both sources. The collector's Prometheus exporter writes
 * OpenTelemetry's service.name as `job`; Prometheus, scraping the collector under its own job
 * (stack/prometheus.yml, no honor_labels), keeps it as `exported_job`. With honor_labels: true,
 * use `job`.
 */
export const SERVICE_LABEL = 'exported_job';

/** The package's own metrics (ToolMetricsSpanProcessor), as Prometheus names them. */
const OWN_FAILURES = 'tool_errors_total{tool_error_kind!=""}';
const OWN_CALLS = 'gen_ai_execute_tool_duration_seconds_count';
/** The collector's span metrics (span_metrics connector), tool spans only. */
const SPAN_FAILURES = 'traces_span_metrics_calls_total{gen_ai_tool_name!="", tool_error_kind!=""}';
const SPAN_CALLS = 'traces_span_metrics_calls_total{gen_ai_tool_name!=""}';

/** Failures a person must act on now: any one failure alerts, over this window, with no `for:`. */
export const IMMEDIATE_WINDOW = '5m';
/**
 * The share of a tool's calls that may fail with one kind (the error budget of a 95% objective
 * per tool and kind). The burn alerts fire when that share is spent `factor` times faster than
 * the objective allows, over both windows (the multi-window, multi-burn-rate alerts of Google's
 * SRE workbook).
 */
export const ERROR_BUDGET = 0.05;
export const BURNS = [
  { name: 'FastBurn', long: '1h', short: '5m', factor: 14.4, for: '2m', severity: 'warning' },
  { name: 'SlowBurn', long: '6h', short: '30m', factor: 6, for: '15m', severity: 'info' },
] as const;
/** The window of the model-quality recording rule. */
export const MODEL_QUALITY_WINDOW = '1h';
/** Every window a source rule is recorded for. */
export const WINDOWS = ['5m', '30m', '1h', '6h'] as const;

export type KindAction = 'page' | 'alert-at-once' | 'burn' | 'model-quality';

/** Each kind's action. Every kind of the taxonomy has one. */
export const KIND_ACTIONS: Readonly<Record<ToolErrorKind, KindAction>> = {
  auth: 'page',
  not_permitted: 'page',
  quota: 'alert-at-once',
  rate_limit: 'burn',
  transient: 'burn',
  timeout: 'burn',
  network: 'burn',
  internal: 'burn',
  invalid_input: 'model-quality',
  unknown_tool: 'model-quality',
  tool_error: 'model-quality',
  permanent: 'model-quality',
  canceled: 'model-quality',
};

const SEVERITY: Record<'page' | 'alert-at-once', string> = { page: 'critical', 'alert-at-once': 'warning' };

export interface RecordingRule {
  record: string;
  expr: string;
  labels?: Record<string, string>;
}
export interface AlertingRule {
  alert: string;
  expr: string;
  for: string;
  labels: Record<string, string>;
  annotations: { summary: string; description: string; runbook_url: string };
}
export interface RuleGroup {
  name: string;
  rules: Array<RecordingRule | AlertingRule>;
}

export const failuresRecord = (w: string) => `service_tool_kind:tool_failures:increase${w}`;
export const callsRecord = (w: string) => `service_tool:tool_calls:increase${w}`;
export const ratioRecord = (w: string) => `service_tool_kind:tool_failures:ratio${w}`;
export const MODEL_QUALITY_RECORD = `service_tool_kind:tool_model_failures:ratio${MODEL_QUALITY_WINDOW}`;

/**
 * How much a counter grew over the window, per series, counting a series born inside the window
 * (a counter that first appears at 1 shows increase() no growth) at its whole value.
 */
function grown(selector: string, w: string): string {
  return `(${selector} unless ${selector} offset ${w})\n    or\n  increase(${selector}[${w}])`;
}

/** One source per service: the package's own metrics where the service exports them, else span metrics. */
function bySource(by: string, own: string, span: string, w: string): string {
  const ownPart = `sum by (${by}) (\n  ${grown(own, w)}\n)`;
  const spanPart = `sum by (${by}) (\n  ${grown(span, w)}\n)\nunless on (${SERVICE_LABEL}) group by (${SERVICE_LABEL}) (${OWN_CALLS})`;
  return (
    `label_replace(\n${indent(ownPart)},\n  "source", "tool_metrics", "", ""\n)\nor\n` +
    `label_replace(\n${indent(spanPart)},\n  "source", "span_metrics", "", ""\n)`
  );
}

const indent = (text: string) =>
  text
    .split('\n')
    .map((l) => `  ${l}`)
    .join('\n');

function round(n: number): number {
  return Number(n.toFixed(6));
}

const pascal = (kind: string) =>
  kind
    .split('_')
    .map((p) => p[0].toUpperCase() + p.slice(1))
    .join('');

export const alertName = (kind: ToolErrorKind, burn?: string) => `ToolErrors${pascal(kind)}${burn ?? ''}`;

function sourceGroup(): RuleGroup {
  const byTool = `${SERVICE_LABEL}, gen_ai_tool_name`;
  const byKind = `${byTool}, tool_error_kind`;
  const rules: RecordingRule[] = [];
  for (const w of WINDOWS) {
    rules.push({ record: failuresRecord(w), expr: bySource(byKind, OWN_FAILURES, SPAN_FAILURES, w) });
    rules.push({ record: callsRecord(w), expr: bySource(byTool, OWN_CALLS, SPAN_CALLS, w) });
    rules.push({
      record: ratioRecord(w),
      expr: `${failuresRecord(w)}\n  / on (${byTool}, source) group_left\n${callsRecord(w)}`,
    });
  }
  return { name: 'tool-errors-sources', rules };
}

function annotations(kind: ToolErrorKind, runbookBase: string, description: string) {
  return {
    summary: `Tool {{ $labels.gen_ai_tool_name }} of {{ $labels.${SERVICE_LABEL} }} fails with tool.error_kind=${kind}`,
    description: `${description} ${TOOL_ERROR_KIND_MEANINGS[kind].description}`,
    runbook_url: `${runbookBase}#${kind}`,
  };
}

function kindGroup(kind: ToolErrorKind, runbookBase: string): RuleGroup {
  const action = KIND_ACTIONS[kind];
  const name = `tool-errors-${kind.replace(/_/g, '-')}`;
  const sel = `{tool_error_kind="${kind}"}`;
  const service = `{{ $labels.${SERVICE_LABEL} }}`;
  if (action === 'page' || action === 'alert-at-once') {
    return {
      name,
      rules: [
        {
          alert: alertName(kind),
          expr: `${failuresRecord(IMMEDIATE_WINDOW)}${sel} > 0`,
          for: '0m',
          labels: { severity: SEVERITY[action], service },
          annotations: annotations(
            kind,
            runbookBase,
            `{{ $value | humanize }} call(s) of tool {{ $labels.gen_ai_tool_name }} failed with kind ${kind} in the last ${IMMEDIATE_WINDOW} (counted from {{ $labels.source }}).`,
          ),
        },
      ],
    };
  }
  if (action === 'burn') {
    return {
      name,
      rules: BURNS.map((b) => {
        const threshold = round(b.factor * ERROR_BUDGET);
        return {
          alert: alertName(kind, b.name),
          expr: `${ratioRecord(b.long)}${sel} > ${threshold}\nand\n${ratioRecord(b.short)}${sel} > ${threshold}`,
          for: b.for,
          labels: { severity: b.severity, service },
          annotations: annotations(
            kind,
            runbookBase,
            `{{ $value | humanizePercentage }} of the calls of tool {{ $labels.gen_ai_tool_name }} failed with kind ${kind} over the last ${b.long}, and more than ${round(threshold * 100)}% over the last ${b.short} (${b.factor} times the ${round(ERROR_BUDGET * 100)}% error budget; counted from {{ $labels.source }}).`,
          ),
        };
      }),
    };
  }
  return {
    name,
    rules: [
      {
        record: MODEL_QUALITY_RECORD,
        expr: `${ratioRecord(MODEL_QUALITY_WINDOW)}${sel}`,
        labels: { tool_error_kind: kind },
      },
    ],
  };
}

export function buildAlertRules(runbookBase = RUNBOOK_BASE_URL): { groups: RuleGroup[] } {
  return { groups: [sourceGroup(), ...TOOL_ERROR_KINDS.map((kind) => kindGroup(kind, runbookBase))] };
}

// ---- YAML: block scalars for expressions, JSON strings (valid YAML) for the rest ----
function yamlRule(rule: RecordingRule | AlertingRule): string {
  const lines: string[] = [];
  const expr = `expr: |-\n${rule.expr
    .split('\n')
    .map((l) => `  ${l}`)
    .join('\n')}`;
  if ('record' in rule) {
    lines.push(`- record: ${rule.record}`, indent(expr));
    if (rule.labels) {
      lines.push('  labels:');
      for (const [k, v] of Object.entries(rule.labels)) lines.push(`    ${k}: ${JSON.stringify(v)}`);
    }
  } else {
    lines.push(`- alert: ${rule.alert}`, indent(expr), `  for: ${rule.for}`, '  labels:');
    for (const [k, v] of Object.entries(rule.labels)) lines.push(`    ${k}: ${JSON.stringify(v)}`);
    lines.push('  annotations:');
    for (const [k, v] of Object.entries(rule.annotations)) lines.push(`    ${k}: ${JSON.stringify(v)}`);
  }
  return lines.join('\n');
}

export async function renderAlertRules(
  runbookBase = RUNBOOK_BASE_URL,
  file = ALERT_RULES_FILE,
): Promise<string> {
  const { groups } = buildAlertRules(runbookBase);
  const head = [
    '# Generated by scripts/generate-alerts.ts (npm run alerts:generate): edit the constants there, not',
    '# this file. What each group does and what to do when an alert fires: docs/alerts.md.',
    '#',
    '# tool-errors-sources records, per service, tool and tool.error_kind, how many calls failed and',
    "# how many were made over 5m, 30m, 1h and 6h, from ONE source per service: the package's own",
    '# metrics (tool_errors_total, gen_ai_execute_tool_duration_seconds_count) where the service',
    "# exports them, the collector's span metrics (traces_span_metrics_calls_total) otherwise; the",
    '# `source` label says which. A counter that first appears inside the window counts at its value.',
    '# Then one group per kind: auth and not_permitted page, quota alerts at once, the retryable kinds',
    "# and internal alert on a fast and a slow error-ratio burn per tool, and the model's own mistakes",
    '# only feed a recording rule.',
  ];
  const body = groups
    .map(
      (g) => `  - name: ${g.name}\n    rules:\n${g.rules.map((r) => indent(indent(yamlRule(r)))).join('\n')}`,
    )
    .join('\n');
  const text = `${head.join('\n')}\ngroups:\n${body}\n`;
  const options = await resolveConfig(file);
  return format(text, { ...options, parser: 'yaml', filepath: file });
}

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

async function main(): Promise<void> {
  const file = resolve(arg('--out') ?? ALERT_RULES_FILE);
  const text = await renderAlertRules(arg('--runbook-base-url') ?? RUNBOOK_BASE_URL, file);
  let old: string | undefined;
  try {
    old = readFileSync(file, 'utf8');
  } catch {
    old = undefined;
  }
  if (process.argv.includes('--check')) {
    if (old !== text) {
      console.error(`${relative(ROOT, file)} is stale: run npm run alerts:generate`);
      process.exit(1);
    }
    console.log(`${relative(ROOT, file)}: up to date`);
    return;
  }
  writeFileSync(file, text);
  console.log(`${relative(ROOT, file)}: ${old === text ? 'unchanged' : 'written'}`);
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
