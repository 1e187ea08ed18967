import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import {
  ALERT_RULES_FILE,
  BURNS,
  ERROR_BUDGET,
  IMMEDIATE_WINDOW,
  KIND_ACTIONS,
  MODEL_QUALITY_RECORD,
  RUNBOOK_BASE_URL,
  WINDOWS,
  buildAlertRules,
  renderAlertRules,
  type AlertingRule,
  type RecordingRule,
  type RuleGroup,
} from '../../scripts/generate-alerts';
import { TOOL_ERROR_KINDS } from '../../src/classify/kinds';

const ROOT = join(__dirname, '..', '..');
const docs = readFileSync(join(ROOT, 'docs/alerts.md'), 'utf8');

const isAlert = (r: AlertingRule | RecordingRule): r is AlertingRule => 'alert' in r;
const groupOf = (groups: RuleGroup[], kind: string) =>
  groups.find((g) => g.name === `tool-errors-${kind.replace(/_/g, '-')}`);

/** GitHub's anchor for a heading: lower case, punctuation but `_` and `-` dropped, spaces to `-`. */
const anchors = new Set(
  [...docs.matchAll(/^#{1,6} (.+)$/gm)].map((m) =>
    m[1]
      .toLowerCase()
      .replace(/[^\w\- ]/g, '')
      .replace(/ /g, '-'),
  ),
);

describe('stack/alerts/tool-errors.rules.yml', function () {
  this.timeout(60_000);
  const { groups } = buildAlertRules();
  const alerts = groups.flatMap((g) => g.rules.filter(isAlert));

  it('is what `npm run alerts:generate` writes now', async () => {
    expect(readFileSync(ALERT_RULES_FILE, 'utf8'), 'stale: run npm run alerts:generate').to.equal(
      await renderAlertRules(),
    );
  });

  it('has a group for every kind of the taxonomy, doing what the kind calls for', () => {
    expect(Object.keys(KIND_ACTIONS).sort()).to.deep.equal([...TOOL_ERROR_KINDS].sort());
    for (const kind of TOOL_ERROR_KINDS) {
      const group = groupOf(groups, kind);
      expect(group, kind).to.not.equal(undefined);
      const own = group!.rules.filter(isAlert);
      for (const rule of group!.rules) expect(rule.expr, kind).to.include(`tool_error_kind="${kind}"`);
      switch (KIND_ACTIONS[kind]) {
        case 'page':
          expect(
            own.map((a) => [a.labels.severity, a.for]),
            kind,
          ).to.deep.equal([['critical', '0m']]);
          expect(own[0].expr).to.include(`increase${IMMEDIATE_WINDOW}`);
          break;
        case 'alert-at-once':
          expect(
            own.map((a) => [a.labels.severity, a.for]),
            kind,
          ).to.deep.equal([['warning', '0m']]);
          break;
        case 'burn':
          expect(
            own.map((a) => [a.labels.severity, a.for]),
            kind,
          ).to.deep.equal(BURNS.map((b) => [b.severity, b.for]));
          for (const [i, b] of BURNS.entries()) {
            const threshold = String(Number((b.factor * ERROR_BUDGET).toFixed(6)));
            expect(own[i].expr).to.include(`ratio${b.long}{tool_error_kind="${kind}"} > ${threshold}`);
            expect(own[i].expr).to.include(`ratio${b.short}{tool_error_kind="${kind}"} > ${threshold}`);
          }
          break;
        case 'model-quality':
          expect(own, `${kind} never alerts`).to.deep.equal([]);
          expect(group!.rules.map((r) => (r as RecordingRule).record)).to.deep.equal([MODEL_QUALITY_RECORD]);
          break;
      }
    }
    expect(alerts.map((a) => a.labels.severity).filter((s) => s === 'critical')).to.have.length(2);
  });

  it('gives every alert a severity, a summary, a description and an absolute runbook_url into docs/alerts.md', () => {
    expect(alerts).to.have.length(13);
    for (const a of alerts) {
      expect(a.labels.severity, a.alert).to.match(/^(critical|warning|info)$/);
      expect(a.annotations.summary, a.alert).to.include('{{ $labels.gen_ai_tool_name }}');
      expect(a.annotations.description, a.alert).to.include('{{ $value');
      const url = new URL(a.annotations.runbook_url);
      expect(`${url.origin}${url.pathname}`, a.alert).to.equal(RUNBOOK_BASE_URL);
      expect(anchors, `docs/alerts.md has a section for ${url.hash}`).to.include(url.hash.slice(1));
    }
    for (const kind of TOOL_ERROR_KINDS) expect(anchors, `section for ${kind}`).to.include(kind);
  });

  it('counts from one source per service, and counts a counter born inside the window', () => {
    const sources = groups.find((g) => g.name === 'tool-errors-sources')!;
    const increases = sources.rules.filter((r) => /increase\d+[mh]$/.test((r as RecordingRule).record));
    expect(increases).to.have.length(2 * WINDOWS.length);
    for (const rule of increases) {
      const window = /increase(\d+[mh])$/.exec((rule as RecordingRule).record)![1];
      expect(rule.expr).to.match(/unless on \(exported_job\) group by \(exported_job\)/);
      expect(rule.expr).to.include(`offset ${window}`);
      expect(rule.expr).to.include(`[${window}]`);
    }
  });

  it('links to another base URL on request, and changes nothing else', async () => {
    const base = 'https://wiki.example.com/runbooks/tool-errors';
    const other = await renderAlertRules(base);
    expect(other).to.not.include(RUNBOOK_BASE_URL);
    expect(other.split(base).join(RUNBOOK_BASE_URL)).to.equal(await renderAlertRules());
  });

  it('is loaded by both Prometheus configs, relative to them', () => {
    for (const [config, path] of [
      ['stack/prometheus.yml', 'alerts/tool-errors.rules.yml'],
      ['stack/production/prometheus.yml', '../alerts/tool-errors.rules.yml'],
    ]) {
      const text = readFileSync(join(ROOT, config), 'utf8');
      expect(text, config).to.match(new RegExp(`^rule_files:\\n  - ${path.replace(/\./g, '\\.')}$`, 'm'));
    }
  });
});
