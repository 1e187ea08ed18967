import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { RETRY_AFTER_HEADERS } from '../../src/semconv';
import { startFlakyServer, type FlakyServer } from '../helpers/flaky-server';
import {
  startOtlpJsonReceiver,
  type OtlpJsonReceiver,
  type ReceivedSpan,
} from '../helpers/otlp-json-receiver';
import { buildRegisterBundles, type RegisterBundles } from '../helpers/register-bundles';
import { runNode } from '../helpers/run-node';

/**
 * The headline case under the register, as users run it: a LangChain tool calls `fetch`, gets a
 * 500 (or 404, or 429), and throws `new Error('upstream failed')`. The wrapper marks the span from
 * the bare Error; the processor then finds the failed HTTP call under it, a stronger answer.
 * Child processes with `--require` (CJS app) and `--import` (ESM app), exporting OTLP/JSON to a
 * receiver on 127.0.0.1.
 */

const FIXTURES = join(__dirname, 'fixtures');

const EXPECTED_OUTPUT = [
  'weather: threw Error: upstream failed',
  'lookup: threw Error: upstream failed',
  'limited: threw Error: upstream failed',
  'quota: threw Error: upstream failed',
  'clock: ok',
].join('\n');

describe('the register: a failed HTTP call under a tool that throws a bare Error', function () {
  this.timeout(120_000);
  let bundles: RegisterBundles;
  let flaky: FlakyServer;

  before(async () => {
    bundles = await buildRegisterBundles();
    flaky = await startFlakyServer();
  });

  after(async () => {
    await flaky?.close();
    bundles?.dispose();
  });

  it('the README shows programmatic users the headers the register records', () => {
    const readme = readFileSync(join(__dirname, '..', '..', 'README.md'), 'utf8');
    const listed = `responseHeaders: [${RETRY_AFTER_HEADERS.map((h) => `'${h}'`).join(', ')}]`;
    expect(readme.split(listed).length - 1, listed).to.equal(2);
  });

  const cases = [
    { flag: '--require', script: 'upstream-tools.cjs', bundle: () => bundles.cjs },
    { flag: '--import', script: 'upstream-tools.mjs', bundle: () => bundles.esm },
  ];

  for (const { flag, script, bundle } of cases) {
    describe(`node ${flag} otel-tool-errors/register ${script}`, () => {
      let receiver: OtlpJsonReceiver;
      let spans: ReceivedSpan[];

      before(async () => {
        receiver = await startOtlpJsonReceiver();
        const env = { FLAKY_URL: flaky.url };
        const plain = await runNode([], join(FIXTURES, script), env);
        const registered = await runNode([flag, bundle()], join(FIXTURES, script), {
          ...env,
          OTEL_SERVICE_NAME: 'upstream-test',
          OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
          OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
          OTEL_METRICS_EXPORTER: 'none',
        });
        expect(plain).to.deep.equal({ code: 0, stdout: `${EXPECTED_OUTPUT}\n`, stderr: '' });
        // The app's own output is the same with and without the register.
        expect(registered).to.deep.equal(plain);
        spans = receiver.spans();
      });

      after(() => receiver?.close());

      function toolError(name: string) {
        const found = spans.filter((span) => span.attributes['gen_ai.tool.name'] === name);
        expect(found, `${name} in ${JSON.stringify(spans.map((s) => s.name))}`).to.have.length(1);
        const { attributes, statusCode } = found[0]!;
        return {
          type: attributes['error.type'],
          kind: attributes['tool.error_kind'],
          retryable: attributes['tool.error_retryable'],
          executed: attributes['tool.error_executed'],
          statusCode,
        };
      }

      it('500: error.type 500, transient, retryable (the HTTP child outranks the bare Error)', () => {
        expect(toolError('weather')).to.deep.equal({
          type: '500',
          kind: 'transient',
          retryable: true,
          executed: true,
          statusCode: 2,
        });
      });

      it('404: permanent', () => {
        expect(toolError('lookup')).to.include({ type: '404', kind: 'permanent', retryable: false });
      });

      it('429 with Retry-After: rate_limit, from the header the register records', () => {
        expect(toolError('limited')).to.include({ type: '429', kind: 'rate_limit', retryable: true });
      });

      it('429 without Retry-After: quota', () => {
        expect(toolError('quota')).to.include({ type: '429', kind: 'quota', retryable: false });
      });

      it('a tool that succeeded: no error attributes', () => {
        expect(toolError('clock')).to.deep.equal({
          type: undefined,
          kind: undefined,
          retryable: undefined,
          executed: undefined,
          statusCode: 0,
        });
      });
    });
  }
});
