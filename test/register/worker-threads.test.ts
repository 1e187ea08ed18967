import { join } from 'node:path';
import { expect } from 'chai';
import { useRegisterBed } from '../helpers/register-bed';
import { runNode } from '../helpers/run-node';

/**
 * Worker threads under the register, as a pool runs them: the thread's owner terminates it as soon
 * as it answered, which runs no JavaScript in it; its tool spans still reach the collector, each
 * handed to the main thread as it ended, and the main thread counts them in the tool metrics.
 */
describe('register: worker threads their owner terminates', function () {
  this.timeout(60_000);
  const bed = useRegisterBed({ receiverPerTest: true });

  for (const entry of ['--require', '--import'] as const) {
    it(`${entry}: the thread's tool spans are exported, enriched, and counted by the main thread`, async () => {
      const result = await runNode(
        [entry, entry === '--require' ? bed.bundles.cjs : bed.bundles.esm],
        join(__dirname, 'fixtures', 'terminated-worker.cjs'),
        {
          OTEL_SERVICE_NAME: 'pool',
          OTEL_EXPORTER_OTLP_ENDPOINT: bed.receiver.endpoint,
          OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
          FLAKY_URL: bed.flaky.url,
        },
      );
      expect([result.code, result.stderr]).to.deep.equal([0, '']);
      expect(result.stdout).to.include('weather.error=true');
      const spans = bed.receiver.spans();
      const weather = spans.filter((span) => span.attributes['gen_ai.tool.name'] === 'get_weather');
      expect(weather, JSON.stringify(spans.map((span) => span.name))).to.have.length(1);
      expect(weather[0]!.serviceName).to.equal('pool');
      expect(weather[0]!.statusCode).to.equal(2);
      expect(weather[0]!.attributes).to.include({ 'error.type': '500', 'tool.error_kind': 'transient' });
      const fetchSpan = spans.find((span) => span.attributes['http.response.status_code'] === 500);
      expect(fetchSpan?.parentSpanId, 'the fetch span under the tool span').to.equal(weather[0]!.spanId);
      const legacy = spans.find((span) => span.attributes['gen_ai.tool.name'] === 'legacy_lookup');
      expect(legacy?.attributes).to.include({ 'error.type': 'ECONNREFUSED', 'tool.error_kind': 'network' });
      const weatherErrors = bed.receiver
        .dataPoints()
        .filter((p) => p.metric === 'tool.errors' && p.attributes['gen_ai.tool.name'] === 'get_weather');
      expect(weatherErrors.map((p) => [p.attributes['error.type'], p.value])).to.deep.equal([['500', 1]]);
    });
  }
});
