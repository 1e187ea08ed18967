import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as semver from 'semver';
import type { TestedRange } from '../../src/instrumentation/framework-support';
import { ToolInstrumentation } from '../../src/instrumentation/tool-instrumentation';

const ROOT = join(__dirname, '..', '..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

interface Suite {
  name: string;
  package: string;
  range: string;
  with?: Record<string, string>;
}

interface Listed {
  range: string;
  runs: Array<{ version: string; install: Record<string, string> }>;
}

const { suites } = JSON.parse(read('test-matrix/suites.json')) as { suites: Suite[] };
const listed = (JSON.parse(read('test-matrix/versions.json')) as { suites: Record<string, Listed> }).suites;

/** Every range an adapter declares, by package: `[package, range]`. */
function declaredRanges(): Array<[string, string]> {
  const pairs = new Set<string>();
  for (const module of new ToolInstrumentation({ enabled: false }).getModuleDefinitions()) {
    // The hooks take any release (`*`); the range each adapter was tested on is declared beside.
    for (const range of (module as unknown as TestedRange).testedVersions) {
      pairs.add(JSON.stringify([module.name, range]));
    }
  }
  return [...pairs].map((pair) => JSON.parse(pair) as [string, string]);
}

describe('the version matrix and the declared ranges', () => {
  it('every declared range is a suite of the version matrix, and the support table names it', () => {
    const table = read('docs/support-table.md');
    for (const [name, range] of declaredRanges()) {
      const covered = suites.some(
        (suite) => suite.range === range && (suite.package === name || suite.with?.[name] === 'same'),
      );
      expect(covered, `${name} ${range} in test-matrix/suites.json`).to.equal(true);
      expect(table, `${name} ${range} in docs/support-table.md`).to.include(`\`${range}\``);
    }
  });

  it("versions.json lists releases of each suite's range, lowest first (npm run matrix:refresh)", () => {
    for (const suite of suites) {
      const entry = listed[suite.name];
      expect(entry?.range, `${suite.name} refreshed for its range`).to.equal(suite.range);
      const versions = entry!.runs.map((run) => run.version);
      expect(versions.length, suite.name).to.be.greaterThan(0);
      for (const version of versions) expect(semver.satisfies(version, suite.range), version).to.equal(true);
      expect(versions).to.deep.equal([...versions].sort(semver.compare));
      for (const run of entry!.runs) expect(run.install[suite.package]).to.equal(run.version);
    }
  });
});
