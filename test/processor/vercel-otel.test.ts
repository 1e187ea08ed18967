import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { startFlakyServer, type FlakyServer } from '../helpers/flaky-server';
import { startOtlpJsonReceiver, type OtlpJsonReceiver } from '../helpers/otlp-json-receiver';

/** Runs the fixture once, with its spans sent to a receiver of its own. */
function runFixture(enrichingExporter: boolean): {
  receiver: () => OtlpJsonReceiver;
  output: () => { stdout: string; stderr: string };
} {
  let receiver: OtlpJsonReceiver;
  let flaky: FlakyServer;
  let output: { stdout: string; stderr: string };
  before(async () => {
    receiver = await startOtlpJsonReceiver();
    flaky = await startFlakyServer();
    output = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', resolve(__dirname, 'vercel-otel.fixture.mts')],
      {
        cwd: resolve(__dirname, '../..'),
        env: {
          PATH: process.env.PATH ?? '',
          FLAKY_URL: flaky.url,
          ...(enrichingExporter
            ? { ENRICHING_EXPORTER: '1', TRACES_URL: `${receiver.endpoint}/v1/traces` }
            : { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' }),
        },
        timeout: 90_000,
      },
    );
  });
  after(async () => {
    await receiver?.close();
    await flaky?.close();
  });
  return { receiver: () => receiver, output: () => output };
}

function toolSpanIn(receiver: OtlpJsonReceiver, name: string) {
  return receiver
    .spans()
    .find((span) => span.name === 'ai.toolCall' && span.attributes['ai.toolCall.name'] === name);
}

/**
 * The processors inside `@vercel/otel`'s real pipeline (vercel-otel.fixture.mts): its bundled SDK
 * never calls `onEnding`, so they write in `onEnd`; what its OTLP exporter sends is checked.
 */
describe('ToolErrorSpanProcessor and RedactingSpanProcessor in @vercel/otel spanProcessors', function () {
  this.timeout(120_000);
  const run = runFixture(false);
  const toolSpan = (name: string) => toolSpanIn(run.receiver(), name);

  it("marks the AI SDK's failed tool spans, and leaves the app's output alone", () => {
    expect(run.output().stdout).to.equal('app: done\n');
    const [lookup, search, clock] = ['lookup', 'search', 'clock'].map(toolSpan);
    expect(lookup?.statusCode).to.equal(2);
    expect(lookup!.attributes).to.include({
      'error.type': '503',
      'tool.error_kind': 'transient',
      'tool.error_retryable': true,
      'tool.error_executed': true,
    });
    // @vercel/otel's fetch span ends after the tool's: the processor marks the tool span again
    // with it, before the batching exporter sends it.
    const fetchSpan = run
      .receiver()
      .spans()
      .find((span) => span.name.startsWith('fetch GET'));
    expect(fetchSpan!.parentSpanId).to.equal(search!.spanId);
    expect(search?.statusCode).to.equal(2);
    expect(search!.attributes).to.include({ 'error.type': '500', 'tool.error_kind': 'transient' });
    expect(clock!.attributes).to.not.have.property('error.type');
    expect(clock!.statusCode).to.not.equal(2);
  });

  it('keeps the secret query value out of the fetch span it exports, its name included', () => {
    const fetchSpan = run
      .receiver()
      .spans()
      .find((span) => span.name.startsWith('fetch GET'));
    expect(fetchSpan?.name).to.match(/^fetch GET http:\/\/127\.0\.0\.1:\d+\/500\?api_key=REDACTED$/);
    const serialized = run
      .receiver()
      .bodies.map((body) => body.toString())
      .join('\n');
    expect(serialized).to.not.contain('sk-live-fixture');
  });

  it('says nothing on stderr: the job is done', () => {
    expect(
      run
        .output()
        .stderr.split('\n')
        .filter((line) => line.includes('otel-tool-errors')),
    ).to.deep.equal([]);
  });
});

describe('@vercel/otel with its trace exporter wrapped in ToolErrorEnrichingExporter (docs/deployment.md)', function () {
  this.timeout(120_000);
  const run = runFixture(true);

  it('a tool that throws a bare Error after a failed fetch gets the status of the fetch span that ended after it', () => {
    expect(run.output().stdout).to.equal('app: done\n');
    const search = toolSpanIn(run.receiver(), 'search');
    const fetchSpan = run
      .receiver()
      .spans()
      .find((span) => span.name.startsWith('fetch GET'));
    expect(fetchSpan, 'the fetch span').to.not.equal(undefined);
    expect(search?.statusCode).to.equal(2);
    expect(search!.attributes).to.include({ 'error.type': '500', 'tool.error_kind': 'transient' });
    expect(toolSpanIn(run.receiver(), 'lookup')!.attributes).to.include({ 'error.type': '503' });
    expect(toolSpanIn(run.receiver(), 'clock')!.attributes).to.not.have.property('error.type');
  });
});
