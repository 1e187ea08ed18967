import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect } from 'chai';
import { useRegisterBed } from '../helpers/register-bed';
import { runNode, type NodeRun } from '../helpers/run-node';

/**
 * ESM set-ups, as users write them, in child processes exporting OTLP/JSON to a receiver: the
 * ESM recipe of docs/programmatic-setup.md (a file given to `--import` that registers the loader hook, then starts a
 * NodeSDK) records the LangChain tool spans; the same file without the hook, and `--require` of
 * the register on an ESM entry, record none and say so once, naming the fix.
 */

const ROOT = join(__dirname, '..', '..');
const APP = join(__dirname, 'fixtures', 'upstream-tools.mjs');
const HOOK_LINE =
  "register('@opentelemetry/instrumentation/hook.mjs', import.meta.url, { data: { include } });";
/** The recipe's hook registration: in-thread where Node supports it, else `module.register`. */
const HOOK_BLOCK =
  /const include = [^\n]*\nconst hooks = await import\('import-in-the-middle\/register-hooks\.mjs'\);\n.*\n.*\n/;
const WARNING = /this app runs as ESM and no import-in-the-middle loader hook is active/g;

/** The `otel.mjs` block of docs/programmatic-setup.md. */
function readmeRecipe(): string {
  const readme = readFileSync(join(ROOT, 'docs', 'programmatic-setup.md'), 'utf8');
  const block = /```ts\n(\/\/ otel\.mjs: [\s\S]*?)```/.exec(readme);
  expect(block, 'docs/programmatic-setup.md has an otel.mjs block').to.not.equal(null);
  expect(block![1]).to.include(HOOK_LINE);
  return block![1]!;
}

describe('ESM set-ups', function () {
  this.timeout(120_000);
  const bed = useRegisterBed({ receiverPerTest: true });
  let plain: NodeRun;

  before(async () => {
    plain = await runNode([], APP, { FLAKY_URL: bed.flaky.url });
    expect(plain.code).to.equal(0);
    expect(plain.stderr).to.equal('');
  });

  /** The recipe as a file next to the bundles, importing the package's ESM build. */
  function writeRecipe(name: string, code: string): string {
    const file = join(bed.bundles.esm, '..', name);
    writeFileSync(
      file,
      code
        .replace("from 'otel-tool-errors'", `from '${pathToFileURL(bed.bundles.libraryEsm).href}'`)
        // The receiver reads OTLP/JSON, which the -http exporter sends.
        .replace('@opentelemetry/exporter-trace-otlp-proto', '@opentelemetry/exporter-trace-otlp-http'),
    );
    return file;
  }

  const env = () => ({
    FLAKY_URL: bed.flaky.url,
    OTEL_EXPORTER_OTLP_ENDPOINT: bed.receiver.endpoint,
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    OTEL_METRICS_EXPORTER: 'none',
  });

  const toolSpans = () =>
    bed.receiver.spans().filter((span) => span.attributes['gen_ai.tool.name'] !== undefined);

  it("the programmatic set-up page's recipe: tool spans with the HTTP evidence, the app's output unchanged, no warning", async () => {
    const result = await runNode(['--import', writeRecipe('otel.mjs', readmeRecipe())], APP, env());
    expect(result).to.deep.equal(plain);
    const weather = toolSpans().find((span) => span.attributes['gen_ai.tool.name'] === 'weather');
    expect(weather?.attributes).to.include({ 'error.type': '500', 'tool.error_kind': 'transient' });
    const limited = toolSpans().find((span) => span.attributes['gen_ai.tool.name'] === 'limited');
    expect(limited?.attributes).to.include({ 'error.type': '429', 'tool.error_kind': 'rate_limit' });
  });

  it('the same file without the hook: no tool spans, and one warning naming the fix', async () => {
    const withoutHook = readmeRecipe().replace(HOOK_BLOCK, '');
    expect(withoutHook).to.not.include(HOOK_LINE);
    const result = await runNode(['--import', writeRecipe('otel-no-hook.mjs', withoutHook)], APP, env());
    expect(result.code).to.equal(0);
    expect(result.stdout).to.equal(plain.stdout);
    expect(result.stderr.match(WARNING), result.stderr).to.have.length(1);
    expect(result.stderr).to.include('@langchain/core');
    expect(result.stderr).to.include('node --import otel-tool-errors/register');
    expect(result.stderr).to.include("register('@opentelemetry/instrumentation/hook.mjs', import.meta.url)");
    expect(toolSpans()).to.deep.equal([]);
    // The SDK runs: the HTTP calls are traced.
    expect(
      bed.receiver.spans().some((span) => span.attributes['http.response.status_code'] === 500),
    ).to.equal(true);
  });

  it('node --require otel-tool-errors/register on an ESM entry: one warning naming --import', async () => {
    const result = await runNode(['--require', bed.bundles.cjs], APP, env());
    expect(result.code).to.equal(0);
    expect(result.stdout).to.equal(plain.stdout);
    expect(result.stderr.match(WARNING), result.stderr).to.have.length(1);
    expect(result.stderr.split('\n').filter((line) => line !== '')).to.have.length(1);
    expect(result.stderr).to.include('node --import otel-tool-errors/register');
    expect(toolSpans()).to.deep.equal([]);
  });

  it('OTEL_LOG_LEVEL=none silences it', async () => {
    const result = await runNode(['--require', bed.bundles.cjs], APP, { ...env(), OTEL_LOG_LEVEL: 'none' });
    expect(result).to.deep.equal(plain);
  });

  it('node --import otel-tool-errors/register on an app that imports no framework: no warning', async () => {
    const result = await runNode(
      ['--import', bed.bundles.esm],
      join(__dirname, 'fixtures', 'no-framework.mjs'),
      env(),
    );
    expect(result).to.deep.equal({ code: 0, stdout: 'app: ran\n', stderr: '' });
  });

  it('node --import otel-tool-errors/register: no warning', async () => {
    const result = await runNode(['--import', bed.bundles.esm], APP, env());
    expect(result).to.deep.equal(plain);
    expect(toolSpans().map((span) => span.attributes['gen_ai.tool.name'])).to.have.members([
      'weather',
      'lookup',
      'limited',
      'quota',
      'clock',
    ]);
  });
});
