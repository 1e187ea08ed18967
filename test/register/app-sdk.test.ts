import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { startOtlpJsonReceiver, type OtlpJsonReceiver } from '../helpers/otlp-json-receiver';
import { useRegisterBed } from '../helpers/register-bed';
import { runNode } from '../helpers/run-node';

/**
 * An app that starts its own OpenTelemetry SDK, run under the register as users run it: its spans
 * and the tool spans go to the collector the app names, in code or by environment, enriched; none
 * to the register's endpoint (a second receiver, what OTEL_EXPORTER_OTLP_ENDPOINT names for the
 * process); and the app's output is what it is without the register.
 */

const APP = join(__dirname, 'fixtures', 'app-sdk.cjs');

describe("register: an app's own SDK", function () {
  this.timeout(60_000);
  const bed = useRegisterBed({ receiverPerTest: true });
  let appCollector: OtlpJsonReceiver;
  let folder: string;
  beforeEach(async () => {
    appCollector = await startOtlpJsonReceiver();
    folder = mkdtempSync(join(tmpdir(), 'app-sdk-'));
  });
  afterEach(async () => {
    await appCollector.close();
    rmSync(folder, { recursive: true, force: true });
  });

  for (const [naming, serviceName] of [
    ['code', 'app-named-in-code'],
    ['env', 'app-named-by-env'],
  ] as const) {
    it(`names its collector ${naming === 'code' ? 'in code' : 'in its .env file'}: the tool spans go there, enriched`, async () => {
      const envFile = join(folder, '.env');
      writeFileSync(envFile, `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT=${appCollector.tracesUrl}\n`);
      const env = {
        OTEL_EXPORTER_OTLP_ENDPOINT: bed.receiver.endpoint,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        FLAKY_URL: bed.flaky.url,
        APP_SDK: naming,
        APP_COLLECTOR: appCollector.tracesUrl,
        APP_ENV_FILE: envFile,
      };
      const plain = await runNode([], APP, env);
      expect(plain.code, plain.stderr).to.equal(0);
      expect(appCollector.spans().map((span) => span.name)).to.include('app-work');
      appCollector.reset();

      const registered = await runNode(['--require', bed.bundles.cjs], APP, env);
      expect(registered).to.deep.equal(plain);
      const spans = appCollector.spans();
      expect(spans.every((span) => span.serviceName === serviceName)).to.equal(true);
      expect(spans.map((span) => span.name)).to.include('app-work');
      const weather = spans.filter((span) => span.attributes['gen_ai.tool.name'] === 'get_weather');
      expect(weather, JSON.stringify(spans.map((span) => span.name))).to.have.length(1);
      expect(weather[0]!.statusCode).to.equal(2);
      expect(weather[0]!.attributes).to.include({ 'error.type': '500', 'tool.error_kind': 'transient' });
      const fetchSpan = spans.find((span) => span.attributes['http.response.status_code'] === 500);
      expect(fetchSpan?.parentSpanId, 'the fetch span under the tool span').to.equal(weather[0]!.spanId);
      // The processor, added to the app's provider, enriched a span the app ended itself.
      const legacy = spans.find((span) => span.attributes['gen_ai.tool.name'] === 'legacy_lookup');
      expect(legacy?.attributes).to.include({ 'error.type': 'ECONNREFUSED', 'tool.error_kind': 'network' });
      expect(bed.receiver.spans()).to.deep.equal([]);
    });
  }
});
