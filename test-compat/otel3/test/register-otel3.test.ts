import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { startFlakyServer, type FlakyServer } from '../../../test/helpers/flaky-server';
import {
  startOtlpJsonReceiver,
  type OtlpJsonReceiver,
  type ReceivedSpan,
} from '../../../test/helpers/otlp-json-receiver';

/**
 * The zero-code register in an app on the OpenTelemetry JS 3.x line, as a user gets it: the packed
 * tarball installed with npm into a fresh app that depends on `@opentelemetry/api` 1.10,
 * `@opentelemetry/sdk-node` 0.301 and `@opentelemetry/sdk-trace` 3. The register runs its own
 * pinned 2.x SDK (npm nests it under otel-tool-errors) on the app's one api 1.10, and loads the
 * app's 3.x OTLP/HTTP JSON trace exporter (an optional peer). Child processes start with
 * `--require` and `--import` and export to a receiver on 127.0.0.1.
 */

const ROOT = join(__dirname, '..', '..', '..');
const FIXTURES = join(ROOT, 'test', 'register', 'fixtures');
const run = promisify(execFile);

/** The 3.x versions this folder tests, and the AI SDK the repository's register fixtures use. */
function appDependencies(tarball: string): Record<string, string> {
  const here = JSON.parse(readFileSync(join(__dirname, '..', 'package.json'), 'utf8')) as {
    devDependencies: Record<string, string>;
  };
  const fromRoot = createRequire(join(ROOT, 'package.json'));
  return {
    '@opentelemetry/api': here.devDependencies['@opentelemetry/api']!,
    '@opentelemetry/sdk-trace': here.devDependencies['@opentelemetry/sdk-trace']!,
    '@opentelemetry/sdk-node': '0.301.0',
    ai: (fromRoot('ai/package.json') as { version: string }).version,
    'otel-tool-errors': `file:${tarball}`,
  };
}

interface AppRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Every installed copy of the package `name` in the app `dir`, at any depth. */
function installedCopies(dir: string, name: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((path) => path.endsWith(join('node_modules', name)))
    .map((path) => join(dir, path));
}

function versionOf(packageDir: string): string {
  return (JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as { version: string }).version;
}

function toolSpan(spans: ReceivedSpan[], toolName: string): ReceivedSpan {
  const found = spans.filter((span) => span.attributes['gen_ai.tool.name'] === toolName);
  expect(found, `spans for ${toolName} in ${JSON.stringify(spans.map((s) => s.name))}`).to.have.length(1);
  return found[0]!;
}

describe('otel-tool-errors/register in an app on the OpenTelemetry JS 3.x line', function () {
  this.timeout(240_000);
  let scratch: string;
  let app: string;
  let flaky: FlakyServer;
  let receiver: OtlpJsonReceiver;

  before(async () => {
    scratch = mkdtempSync(join(tmpdir(), 'otel3-register-'));
    const { stdout } = await run('npm', ['pack', '--silent', '--pack-destination', scratch], { cwd: ROOT });
    const tarball = join(scratch, stdout.trim().split('\n').pop()!);
    app = join(scratch, 'app');
    mkdirSync(app);
    writeFileSync(
      join(app, 'package.json'),
      JSON.stringify({ name: 'app-on-otel3', private: true, dependencies: appDependencies(tarball) }),
    );
    for (const file of ['agent.cjs', 'agent.mjs', 'run-agent.cjs'])
      copyFileSync(join(FIXTURES, file), join(app, file));
    await run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: app });
    flaky = await startFlakyServer();
  });

  after(async () => {
    await flaky?.close();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  beforeEach(async () => {
    receiver = await startOtlpJsonReceiver();
  });

  afterEach(async () => {
    await receiver.close();
  });

  /** `node <nodeArgs> <script>` in the app, with only the variables a user would set. */
  async function runApp(nodeArgs: string[], script: string): Promise<AppRun> {
    const child = spawn(process.execPath, [...nodeArgs, script], {
      cwd: app,
      env: {
        PATH: process.env.PATH ?? '',
        OTEL_SERVICE_NAME: 'register-on-otel3',
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_LOGS_EXPORTER: 'none',
        FLAKY_URL: flaky.url,
      },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const killer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    const [code] = (await once(child, 'exit')) as [number | null];
    clearTimeout(killer);
    return { code, stdout, stderr };
  }

  function expectAgentTelemetry(result: AppRun) {
    expect(result.stderr).to.equal('');
    expect(result.code).to.equal(0);
    expect(result.stdout).to.include('weather.error=true');
    // The app's own api 1.10 sees the provider the register set: one global API.
    expect(result.stdout).to.include('tracer-provider-registered=true');
    const spans = receiver.spans();
    expect(spans.every((span) => span.serviceName === 'register-on-otel3')).to.equal(true);

    const weather = toolSpan(spans, 'get_weather');
    expect(weather.statusCode).to.equal(2);
    expect(weather.attributes).to.include({
      'error.type': '500',
      'tool.error_kind': 'transient',
      'tool.error_retryable': true,
    });
    const fetchSpans = spans.filter((span) => span.attributes['http.response.status_code'] === 500);
    expect(fetchSpans, 'the HTTP client span of the failing fetch').to.have.length(1);
    expect(fetchSpans[0]!.parentSpanId).to.equal(weather.spanId);
    expect(toolSpan(spans, 'get_time').attributes).to.not.have.property('error.type');
    // A span the app ended itself through its api 1.10, enriched by the register's processor.
    expect(toolSpan(spans, 'legacy_lookup').attributes).to.include({
      'error.type': 'ECONNREFUSED',
      'tool.error_kind': 'network',
    });
    expect(
      receiver
        .dataPoints()
        .find((p) => p.metric === 'tool.errors' && p.attributes['gen_ai.tool.name'] === 'get_weather')?.value,
    ).to.equal(1);
  }

  it("installs with one @opentelemetry/api (the app's 1.10) and the app's 3.x OTLP/HTTP trace exporter", () => {
    const modules = join(app, 'node_modules');
    expect(installedCopies(app, join('@opentelemetry', 'api')).map(versionOf)).to.deep.equal(['1.10.0']);
    expect(versionOf(join(modules, '@opentelemetry', 'sdk-trace'))).to.match(/^3\./);
    expect(versionOf(join(modules, '@opentelemetry', 'exporter-trace-otlp-http'))).to.equal('0.301.0');
    // The register's own SDK: 2.x, nested under the package.
    const sdks = installedCopies(app, join('@opentelemetry', 'sdk-trace-node'));
    expect(sdks.map(versionOf)).to.deep.equal(['2.12.0']);
  });

  it('--require: a CommonJS app exports enriched tool spans, HTTP child spans and tool metrics', async () => {
    expectAgentTelemetry(await runApp(['--require', 'otel-tool-errors/register'], 'agent.cjs'));
  });

  it('--import: an ESM app gets the same, through the loader hook', async () => {
    expectAgentTelemetry(await runApp(['--import', 'otel-tool-errors/register'], 'agent.mjs'));
  });
});
