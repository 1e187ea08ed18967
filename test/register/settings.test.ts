// The register builds its processors from its own dependency, sdk-trace-node (which re-exports
// sdk-trace-base's): an app's newer sdk-trace-base is another copy.
import { BatchSpanProcessor, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-node';
import { OTLPTraceExporter as OtlpGrpcExporter } from '@opentelemetry/exporter-trace-otlp-grpc';
import { OTLPTraceExporter as OtlpJsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as OtlpProtoExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { expect } from 'chai';
import { instrumentationEnabled, readRegisterSettings } from '../../src/register/settings';
import { ExporterOnFirstExport, exportingSpanProcessors, loadPackage } from '../../src/export/exporters';

describe('register settings from the environment', () => {
  it("defaults: enabled, OTLP http/protobuf for traces and metrics with the exporters' own 10 s, a 1 s exit, no capture, everything on", () => {
    const otlp = { exporters: ['otlp'], protocol: 'http/protobuf', timeoutMillis: 10_000 };
    expect(readRegisterSettings({})).to.deep.equal({
      disabled: false,
      traces: otlp,
      metrics: otlp,
      metricExportIntervalMillis: 60_000,
      exitTimeoutMillis: 1_000,
      resourceDetectors: ['host', 'process', 'env'],
      enabledInstrumentations: undefined,
      disabledInstrumentations: new Set(),
      instrumentation: { captureArguments: false, captureResults: false, disabledFrameworks: [] },
      propagators: ['tracecontext', 'baggage'],
      logLevel: undefined,
      warnings: [],
    });
  });

  it('a capture switch that is neither true nor false is reported, naming the valid values, and capture stays off', () => {
    const settings = readRegisterSettings({
      OTEL_TOOL_ERRORS_CAPTURE_ARGUMENTS: 'yes',
      OTEL_TOOL_ERRORS_CAPTURE_RESULTS: '1',
    });
    expect(settings.instrumentation).to.include({ captureArguments: false, captureResults: false });
    expect(settings.warnings).to.deep.equal([
      'OTEL_TOOL_ERRORS_CAPTURE_ARGUMENTS="yes" is not valid; use true or false. Read as false.',
      'OTEL_TOOL_ERRORS_CAPTURE_RESULTS="1" is not valid; use true or false. Read as false.',
    ]);
    for (const valid of ['true', ' TRUE ', 'false', 'False', '']) {
      expect(readRegisterSettings({ OTEL_TOOL_ERRORS_CAPTURE_ARGUMENTS: valid }).warnings).to.deep.equal([]);
    }
  });

  it('OTEL_EXPORTER_OTLP_TIMEOUT sets how long an export may take, retries included; the per-signal one wins', () => {
    const settings = readRegisterSettings({
      OTEL_EXPORTER_OTLP_TIMEOUT: '3000',
      OTEL_EXPORTER_OTLP_METRICS_TIMEOUT: '2000',
    });
    expect([settings.traces.timeoutMillis, settings.metrics.timeoutMillis]).to.deep.equal([3_000, 2_000]);
    // The exit is bounded by its own variable, not by the exports' timeout.
    expect(settings.exitTimeoutMillis).to.equal(1_000);
    const malformed = readRegisterSettings({ OTEL_EXPORTER_OTLP_TIMEOUT: 'soon' });
    expect(malformed.traces.timeoutMillis).to.equal(10_000);
    expect(malformed.warnings).to.deep.equal([
      'OTEL_EXPORTER_OTLP_TIMEOUT="soon" is not a positive number of milliseconds; using 10000',
    ]);
  });

  it('OTEL_TOOL_ERRORS_EXIT_TIMEOUT bounds the exit; a value that is no number of milliseconds is reported', () => {
    expect(readRegisterSettings({ OTEL_TOOL_ERRORS_EXIT_TIMEOUT: '2500' }).exitTimeoutMillis).to.equal(2_500);
    const malformed = readRegisterSettings({ OTEL_TOOL_ERRORS_EXIT_TIMEOUT: '-1' });
    expect(malformed.exitTimeoutMillis).to.equal(1_000);
    expect(malformed.warnings).to.deep.equal([
      'OTEL_TOOL_ERRORS_EXIT_TIMEOUT="-1" is not a positive number of milliseconds; using 1000',
    ]);
  });

  it('OTEL_NODE_RESOURCE_DETECTORS: names as auto-instrumentations-node reads them, all and none; unset or empty keeps host, process, env', () => {
    const detectors = (value?: string) =>
      readRegisterSettings(value === undefined ? {} : { OTEL_NODE_RESOURCE_DETECTORS: value })
        .resourceDetectors;
    expect(detectors()).to.deep.equal(['host', 'process', 'env']);
    expect(detectors(' ')).to.deep.equal(['host', 'process', 'env']);
    expect(detectors('env, container,os')).to.deep.equal(['env', 'container', 'os']);
    expect(detectors('none')).to.deep.equal([]);
    expect(detectors('os,all')).to.deep.equal([
      'container',
      'host',
      'os',
      'serviceinstance',
      'process',
      'alibaba',
      'gcp',
      'aws',
      'azure',
      'env',
    ]);
    const misspelt = readRegisterSettings({ OTEL_NODE_RESOURCE_DETECTORS: 'env,kubernetes' });
    expect(misspelt.resourceDetectors).to.deep.equal(['env']);
    expect(misspelt.warnings).to.deep.equal([
      'OTEL_NODE_RESOURCE_DETECTORS names kubernetes, which is not a resource detector; known: container, host, os, serviceinstance, process, alibaba, gcp, aws, azure, env, all, none',
    ]);
  });

  it('OTEL_NODE_ENABLED_INSTRUMENTATIONS / _DISABLED_INSTRUMENTATIONS: comma lists, as auto-instrumentations-node reads them', () => {
    const settings = readRegisterSettings({
      OTEL_NODE_ENABLED_INSTRUMENTATIONS: 'http, mcp',
      OTEL_NODE_DISABLED_INSTRUMENTATIONS: 'mcp',
    });
    expect(instrumentationEnabled(settings, 'http')).to.equal(true);
    expect(instrumentationEnabled(settings, 'undici')).to.equal(false);
    expect(instrumentationEnabled(settings, 'mcp')).to.equal(false);
    const disabledOnly = readRegisterSettings({ OTEL_NODE_DISABLED_INSTRUMENTATIONS: 'undici' });
    expect(instrumentationEnabled(disabledOnly, 'undici')).to.equal(false);
    expect(instrumentationEnabled(disabledOnly, 'langchain')).to.equal(true);
    expect(settings.warnings).to.deep.equal([]);
  });

  it('names nothing here answers to, in the instrumentation and framework variables, are reported a line each', () => {
    const { warnings } = readRegisterSettings({
      OTEL_NODE_ENABLED_INSTRUMENTATIONS: 'undici,express',
      OTEL_NODE_DISABLED_INSTRUMENTATIONS: 'pg, mcp',
      OTEL_TOOL_ERRORS_DISABLED_FRAMEWORKS: 'langchian,http',
    });
    expect(warnings).to.have.length(3);
    expect(warnings[0]).to.match(
      /^OTEL_NODE_ENABLED_INSTRUMENTATIONS names express, which this register does not run; known: http, undici, mcp, /,
    );
    expect(warnings[1]).to.match(
      /^OTEL_NODE_DISABLED_INSTRUMENTATIONS names pg, which this register does not run;/,
    );
    // `http` is an instrumentation, not a framework.
    expect(warnings[2]).to.match(
      /^OTEL_TOOL_ERRORS_DISABLED_FRAMEWORKS names langchian, http, which is no framework it instruments \(ignored\); known: mcp, langchain, /,
    );
  });

  it('OTEL_PROPAGATORS other than tracecontext and baggage is reported: only those two are registered', () => {
    expect(readRegisterSettings({ OTEL_PROPAGATORS: 'tracecontext,baggage' }).warnings).to.deep.equal([]);
    expect(readRegisterSettings({ OTEL_PROPAGATORS: 'b3, tracecontext' }).warnings).to.deep.equal([
      'OTEL_PROPAGATORS names b3, which the register does not propagate; known: tracecontext, baggage, none',
    ]);
  });

  it('OTEL_PROPAGATORS: both W3C propagators unless set, the ones named, none for none', () => {
    expect(readRegisterSettings({}).propagators).to.deep.equal(['tracecontext', 'baggage']);
    expect(readRegisterSettings({ OTEL_PROPAGATORS: 'none' }).propagators).to.deep.equal([]);
    expect(readRegisterSettings({ OTEL_PROPAGATORS: 'baggage' }).propagators).to.deep.equal(['baggage']);
    expect(readRegisterSettings({ OTEL_PROPAGATORS: 'b3' }).propagators).to.deep.equal([
      'tracecontext',
      'baggage',
    ]);
    expect(readRegisterSettings({ OTEL_PROPAGATORS: 'none' }).warnings).to.deep.equal([]);
  });

  it('a package the settings need but the app does not have: an error naming it and how to install it', () => {
    expect(() => loadPackage('@opentelemetry/exporter-trace-otlp-nothing', 'OTLP traces over grpc')).to.throw(
      'OTLP traces over grpc needs the package @opentelemetry/exporter-trace-otlp-nothing: npm install @opentelemetry/exporter-trace-otlp-nothing',
    );
  });

  it('OTEL_LOGS_EXPORTER other than none is reported: the register exports no logs', () => {
    expect(readRegisterSettings({ OTEL_LOGS_EXPORTER: 'otlp' }).warnings).to.deep.equal([
      'OTEL_LOGS_EXPORTER="otlp" is not supported: this register exports traces and metrics only',
    ]);
    expect(readRegisterSettings({ OTEL_LOGS_EXPORTER: 'none' }).warnings).to.deep.equal([]);
  });

  it('OTEL_SDK_DISABLED accepts true in any case, and nothing else', () => {
    expect(readRegisterSettings({ OTEL_SDK_DISABLED: ' TRUE ' }).disabled).to.equal(true);
    expect(readRegisterSettings({ OTEL_SDK_DISABLED: '1' }).disabled).to.equal(false);
    expect(readRegisterSettings({ OTEL_SDK_DISABLED: 'false' }).disabled).to.equal(false);
  });

  it('OTEL_TRACES_EXPORTER: a comma list, deduplicated; none alone means no exporter', () => {
    expect(
      readRegisterSettings({ OTEL_TRACES_EXPORTER: 'console, otlp,console' }).traces.exporters,
    ).to.deep.equal(['console', 'otlp']);
    expect(readRegisterSettings({ OTEL_TRACES_EXPORTER: 'none' }).traces.exporters).to.deep.equal([]);
    expect(readRegisterSettings({ OTEL_TRACES_EXPORTER: '' }).traces.exporters).to.deep.equal(['otlp']);
    expect(readRegisterSettings({ OTEL_METRICS_EXPORTER: 'none' }).metrics.exporters).to.deep.equal([]);
  });

  it('reports an unsupported exporter or protocol as a warning rather than failing', () => {
    const settings = readRegisterSettings({
      OTEL_TRACES_EXPORTER: 'zipkin,otlp',
      OTEL_EXPORTER_OTLP_PROTOCOL: 'carrier-pigeon',
    });
    expect(settings.traces.exporters).to.deep.equal(['otlp']);
    expect(settings.traces.protocol).to.equal('http/protobuf');
    // The general protocol is read for both signals and reported once.
    expect(settings.warnings).to.deep.equal([
      'OTEL_TRACES_EXPORTER names zipkin, which is not supported (ignored); known: otlp, console, none',
      'OTEL_EXPORTER_OTLP_PROTOCOL="carrier-pigeon" is not an OTLP protocol (http/protobuf, http/json, grpc); using http/protobuf',
    ]);
  });

  it('the traces-specific protocol wins over the general one', () => {
    expect(
      readRegisterSettings({
        OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc',
        OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json',
      }).traces.protocol,
    ).to.equal('http/json');
    expect(readRegisterSettings({ OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' }).traces.protocol).to.equal('grpc');
  });

  it('reads our variables: capture switches and the frameworks to leave alone', () => {
    expect(
      readRegisterSettings({
        OTEL_TOOL_ERRORS_CAPTURE_ARGUMENTS: 'true',
        OTEL_TOOL_ERRORS_CAPTURE_RESULTS: 'True',
        OTEL_TOOL_ERRORS_DISABLED_FRAMEWORKS: ' mcp , langchain,,',
      }).instrumentation,
    ).to.deep.equal({
      captureArguments: true,
      captureResults: true,
      disabledFrameworks: ['mcp', 'langchain'],
    });
  });

  it('OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT turns both captures on; our own switches win', () => {
    const genai = { OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: 'true' };
    expect(readRegisterSettings(genai).instrumentation).to.include({
      captureArguments: true,
      captureResults: true,
    });
    expect(
      readRegisterSettings({ ...genai, OTEL_TOOL_ERRORS_CAPTURE_ARGUMENTS: 'false' }).instrumentation,
    ).to.include({ captureArguments: false, captureResults: true });
    expect(
      readRegisterSettings({
        OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: 'false',
        OTEL_TOOL_ERRORS_CAPTURE_RESULTS: 'true',
      }).instrumentation,
    ).to.include({ captureArguments: false, captureResults: true });
  });

  it('reads the GenAI switch the way OpenTelemetry GenAI instrumentations do: content goes on spans only', () => {
    const capture = (value: string) => {
      const settings = readRegisterSettings({ OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: value });
      return [
        settings.instrumentation.captureArguments,
        settings.instrumentation.captureResults,
        settings.warnings,
      ];
    };
    for (const value of ['true', 'TRUE', 'SPAN_ONLY', 'span_and_event', ' SPAN_AND_EVENT ']) {
      expect(capture(value), value).to.deep.equal([true, true, []]);
    }
    for (const value of ['false', 'EVENT_ONLY', 'NO_CONTENT', '']) {
      expect(capture(value), value).to.deep.equal([false, false, []]);
    }
    expect(capture('yes')).to.deep.equal([
      false,
      false,
      [
        'OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT="yes" is not valid; use true, false, SPAN_ONLY, ' +
          'EVENT_ONLY, SPAN_AND_EVENT or NO_CONTENT. Read as false.',
      ],
    ]);
  });
});

describe('the exporting span processors built from the settings', () => {
  const processors = (env: Record<string, string>) => exportingSpanProcessors(readRegisterSettings(env));
  // The processor keeps its exporter private; reading it is the one way to see which was built.
  const exporterOf = (processor: unknown) => (processor as { _exporter: unknown })._exporter;

  it('batches each OTLP protocol through its own exporter', async () => {
    const cases = [
      ['http/protobuf', OtlpProtoExporter],
      ['http/json', OtlpJsonExporter],
      ['grpc', OtlpGrpcExporter],
    ] as const;
    for (const [protocol, Exporter] of cases) {
      const [processor] = processors({ OTEL_EXPORTER_OTLP_PROTOCOL: protocol });
      expect(processor, protocol).to.be.instanceOf(BatchSpanProcessor);
      let exporter = exporterOf(processor);
      if (protocol === 'http/protobuf') {
        // The bundled exporter is built on the first export, not at start.
        const deferred = exporter as ExporterOnFirstExport;
        expect(deferred, protocol).to.be.instanceOf(ExporterOnFirstExport);
        expect(deferred.exporter, protocol).to.equal(undefined);
        deferred.export([], () => undefined);
        exporter = deferred.exporter;
      }
      expect(exporter, protocol).to.be.instanceOf(Exporter);
      await processor!.shutdown();
    }
  });

  it('console exports each span as it ends; none exports nothing', async () => {
    const [processor] = processors({ OTEL_TRACES_EXPORTER: 'console' });
    expect(processor).to.be.instanceOf(SimpleSpanProcessor);
    await processor!.shutdown();
    expect(processors({ OTEL_TRACES_EXPORTER: 'none' })).to.deep.equal([]);
  });
});
