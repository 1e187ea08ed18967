import { BatchSpanProcessor, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { OTLPTraceExporter as OtlpGrpcExporter } from '@opentelemetry/exporter-trace-otlp-grpc';
import { OTLPTraceExporter as OtlpJsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as OtlpProtoExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { expect } from 'chai';
import { readRegisterSettings } from '../../src/register/settings';
import { exportingSpanProcessors } from '../../src/register/trace-exporters';

describe('register settings from the environment', () => {
  it('defaults: enabled, one OTLP http/protobuf exporter, no capture, every framework on', () => {
    expect(readRegisterSettings({})).to.deep.equal({
      disabled: false,
      tracesExporters: ['otlp'],
      tracesProtocol: 'http/protobuf',
      instrumentation: { captureArguments: false, captureResults: false, disabledFrameworks: [] },
      warnings: [],
      invalidValues: [],
    });
  });

  it('a capture switch that is neither true nor false is reported, naming the valid values, and capture stays off', () => {
    const settings = readRegisterSettings({
      OTEL_TOOL_ERRORS_CAPTURE_ARGUMENTS: 'yes',
      OTEL_TOOL_ERRORS_CAPTURE_RESULTS: '1',
    });
    expect(settings.instrumentation).to.include({ captureArguments: false, captureResults: false });
    expect(settings.invalidValues).to.deep.equal([
      'OTEL_TOOL_ERRORS_CAPTURE_ARGUMENTS="yes" is not valid; use true or false. Read as false.',
      'OTEL_TOOL_ERRORS_CAPTURE_RESULTS="1" is not valid; use true or false. Read as false.',
    ]);
    for (const valid of ['true', ' TRUE ', 'false', 'False', '']) {
      expect(readRegisterSettings({ OTEL_TOOL_ERRORS_CAPTURE_ARGUMENTS: valid }).invalidValues).to.deep.equal(
        [],
      );
    }
  });

  it('OTEL_SDK_DISABLED accepts true in any case, and nothing else', () => {
    expect(readRegisterSettings({ OTEL_SDK_DISABLED: ' TRUE ' }).disabled).to.equal(true);
    expect(readRegisterSettings({ OTEL_SDK_DISABLED: '1' }).disabled).to.equal(false);
    expect(readRegisterSettings({ OTEL_SDK_DISABLED: 'false' }).disabled).to.equal(false);
  });

  it('OTEL_TRACES_EXPORTER: a comma list, deduplicated; none alone means no exporter', () => {
    expect(
      readRegisterSettings({ OTEL_TRACES_EXPORTER: 'console, otlp,console' }).tracesExporters,
    ).to.deep.equal(['console', 'otlp']);
    expect(readRegisterSettings({ OTEL_TRACES_EXPORTER: 'none' }).tracesExporters).to.deep.equal([]);
    expect(readRegisterSettings({ OTEL_TRACES_EXPORTER: '' }).tracesExporters).to.deep.equal(['otlp']);
  });

  it('reports an unsupported exporter or protocol as a warning rather than failing', () => {
    const settings = readRegisterSettings({
      OTEL_TRACES_EXPORTER: 'zipkin,otlp',
      OTEL_EXPORTER_OTLP_PROTOCOL: 'carrier-pigeon',
    });
    expect(settings.tracesExporters).to.deep.equal(['otlp']);
    expect(settings.tracesProtocol).to.equal('http/protobuf');
    expect(settings.warnings).to.deep.equal([
      'unsupported OTEL_TRACES_EXPORTER value "zipkin"; use otlp, console or none',
      'unsupported OTLP protocol "carrier-pigeon"; using http/protobuf',
    ]);
  });

  it('the traces-specific protocol wins over the general one', () => {
    expect(
      readRegisterSettings({
        OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc',
        OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json',
      }).tracesProtocol,
    ).to.equal('http/json');
    expect(readRegisterSettings({ OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' }).tracesProtocol).to.equal('grpc');
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
      expect(exporterOf(processor), protocol).to.be.instanceOf(Exporter);
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
