import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { expect } from 'chai';
import { useRegisterBed } from '../helpers/register-bed';
import { runNode } from '../helpers/run-node';

/**
 * OTEL_PROPAGATORS decides which trace headers the register's HTTP instrumentations put on the
 * app's outgoing calls (model vendors included): both W3C ones by default, one, or none.
 */

const APP = join(__dirname, 'fixtures', 'outgoing-calls.cjs');

/** Answers every request with the trace headers it carried, as JSON. */
async function startHeadersEcho(): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    const seen = { traceparent: req.headers.traceparent ?? null, baggage: req.headers.baggage ?? null };
    res.end(JSON.stringify(seen));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/echo` };
}

describe('the register: OTEL_PROPAGATORS', function () {
  this.timeout(60_000);
  const bed = useRegisterBed();
  let echo: { server: Server; url: string };
  before(async () => {
    echo = await startHeadersEcho();
  });
  after(() => echo.server.close());

  async function headersSeen(propagators: string | undefined): Promise<string[]> {
    const env: Record<string, string> = {
      HEADERS_URL: echo.url,
      OTEL_TRACES_EXPORTER: 'none',
      OTEL_METRICS_EXPORTER: 'none',
    };
    if (propagators !== undefined) env.OTEL_PROPAGATORS = propagators;
    const result = await runNode(['--require', bed.bundles.cjs], APP, env);
    expect(result.code, result.stderr).to.equal(0);
    expect(result.stderr).to.equal('');
    return result.stdout.trim().split('\n');
  }

  it('unset: traceparent and baggage on fetch and node:http calls', async () => {
    for (const line of await headersSeen(undefined)) {
      expect(line).to.match(
        /^(fetch|http): \{"traceparent":"00-[0-9a-f]{32}-[0-9a-f]{16}-01","baggage":"tenant=acme"\}$/,
      );
    }
  });

  it('none: no trace header on any outgoing call', async () => {
    expect(await headersSeen('none')).to.deep.equal([
      'fetch: {"traceparent":null,"baggage":null}',
      'http: {"traceparent":null,"baggage":null}',
    ]);
  });

  it('tracecontext alone: traceparent, no baggage', async () => {
    for (const line of await headersSeen('tracecontext')) {
      expect(line).to.match(
        /^(fetch|http): \{"traceparent":"00-[0-9a-f]{32}-[0-9a-f]{16}-01","baggage":null\}$/,
      );
    }
  });

  it('baggage alone: baggage, no traceparent', async () => {
    expect(await headersSeen('baggage')).to.deep.equal([
      'fetch: {"traceparent":null,"baggage":"tenant=acme"}',
      'http: {"traceparent":null,"baggage":"tenant=acme"}',
    ]);
  });
});
