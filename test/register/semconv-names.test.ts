import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { expect } from 'chai';
import { semconvNamesOnly, semconvNamesUsed } from '../../tsup-semconv-names';
import { bundleScratch } from '../helpers/scratch-bundle';

const ROOT = join(__dirname, '..', '..');
const load = createRequire(join(ROOT, 'package.json'));
const semconv = load('@opentelemetry/semantic-conventions') as Record<string, unknown>;

/** `source` bundled as the register's SDK is, then run: its exports. */
async function bundle(source: string): Promise<Record<string, unknown>> {
  const text = await bundleScratch(source, [semconvNamesOnly]);
  const module = { exports: {} as Record<string, unknown> };
  new Function('module', 'exports', 'require', text)(module, module.exports, load);
  return module.exports;
}

describe("the register's bundle: semantic conventions by name for CommonJS packages", () => {
  it('reads every name instrumentation-http and instrumentation-undici use, each one the package exports', () => {
    for (const file of [
      '@opentelemetry/instrumentation-http/build/src/http.js',
      '@opentelemetry/instrumentation-http/build/src/utils.js',
      '@opentelemetry/instrumentation-undici/build/src/undici.js',
    ]) {
      const source = readFileSync(load.resolve(file), 'utf8');
      const names = semconvNamesUsed(source, file);
      expect(names, file).to.include('ATTR_HTTP_REQUEST_METHOD');
      for (const name of names) expect(semconv[name], `${file}: ${name}`).to.be.a('string');
      // Every name the file mentions after the variable is in the list.
      const variable = /const (\w+) = require\("@opentelemetry\/semantic-conventions"\)/.exec(source)![1]!;
      const mentioned = new Set(
        [...source.matchAll(new RegExp(`${variable}\\.(\\w+)`, 'g'))].map((m) => m[1]),
      );
      expect(names).to.have.members([...mentioned]);
    }
  });

  it('refuses a file that uses the package other than by name', () => {
    const passedOn = 'const s = require("@opentelemetry/semantic-conventions");\nuse(s.ATTR_URL_FULL, s);';
    expect(() => semconvNamesUsed(passedOn, 'passed-on.js')).to.throw(/uses s .* other than by name/);
    const destructured = 'const { ATTR_URL_FULL } = require("@opentelemetry/semantic-conventions");';
    expect(() => semconvNamesUsed(destructured, 'destructured.js')).to.throw(/cannot read/);
  });

  it('bundles the values the package has for the names used', async () => {
    const exported = await bundle(
      'const semantic_conventions_1 = require("@opentelemetry/semantic-conventions");\n' +
        'module.exports = { url: semantic_conventions_1.ATTR_URL_FULL, duration: (0, semantic_conventions_1.METRIC_HTTP_CLIENT_REQUEST_DURATION) };',
    );
    expect(exported).to.deep.equal({
      url: semconv.ATTR_URL_FULL,
      duration: semconv.METRIC_HTTP_CLIENT_REQUEST_DURATION,
    });
  });

  it('fails the build when the installed version lacks a name a package reads', async () => {
    const failure = await bundle(
      'const semantic_conventions_1 = require("@opentelemetry/semantic-conventions");\n' +
        'module.exports = semantic_conventions_1.ATTR_NOT_A_CONVENTION;',
    ).then(
      () => undefined,
      (err: Error) => err,
    );
    expect(failure?.message).to.match(/No matching export[^]*ATTR_NOT_A_CONVENTION/);
  });
});
