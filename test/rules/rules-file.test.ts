import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { EMBEDDED_RULES_FILE, RULES_FILE, renderRules } from '../../scripts/generate-rules';
import { TOOL_ERROR_KINDS } from '../../src/classify/kinds';

describe('rules/tool-errors.json', function () {
  this.timeout(60_000);
  let generated: string;

  before(async () => {
    generated = await renderRules();
  });

  it('is what `npm run rules:generate` writes from the sources now', () => {
    expect(readFileSync(RULES_FILE, 'utf8'), 'stale: run npm run rules:generate').to.equal(generated);
  });

  it("is the collector processor's embedded copy", () => {
    expect(readFileSync(EMBEDDED_RULES_FILE, 'utf8'), 'stale: run npm run rules:generate').to.equal(
      generated,
    );
  });

  it('names only kinds of the taxonomy', () => {
    const rules = JSON.parse(generated) as {
      kinds: Array<{ kind: string }>;
      python: { classes: Record<string, string> };
      http: { statuses: Array<{ kind: string; kindWithRetryAfter?: string }> };
    };
    expect(rules.kinds.map((row) => row.kind)).to.deep.equal([...TOOL_ERROR_KINDS]);
    const named = [
      ...Object.values(rules.python.classes),
      ...rules.http.statuses.flatMap((run) => [run.kind, run.kindWithRetryAfter ?? run.kind]),
    ];
    expect(named.filter((kind) => !TOOL_ERROR_KINDS.includes(kind as never))).to.deep.equal([]);
  });
});
