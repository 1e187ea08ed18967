import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';

/**
 * Recognition runs code generated from the span-family declarations where the runtime allows it.
 * Where it does not (edge runtimes, `--disallow-code-generation-from-strings`), the same tests
 * read the declarations: every family's conformance spec, run again in such a process.
 */
describe('span families where code cannot be generated', () => {
  it('pass their conformance specs with code generation disallowed', function () {
    this.timeout(120_000);
    const specs = readdirSync(__dirname)
      .filter((name) => name.endsWith('.test.ts') && name !== 'without-code-generation.test.ts')
      .map((name) => join(__dirname, name));
    expect(specs.length).to.be.greaterThan(10);
    const mocha = require.resolve('mocha/bin/mocha.js');
    const run = spawnSync(
      process.execPath,
      [
        '--disallow-code-generation-from-strings',
        mocha,
        '--no-config',
        '-n',
        'import=tsx',
        '--extension',
        'ts',
        '--reporter',
        'dot',
        ...specs,
      ],
      { encoding: 'utf8' },
    );
    expect(run.status, run.stdout + run.stderr).to.equal(0);
    expect(run.stdout).to.match(/\d+ passing/);
    expect(run.stdout).to.not.match(/failing|pending/);
  });
});
