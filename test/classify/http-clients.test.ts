import { expect } from 'chai';
import axios from 'axios';
import got from 'got';
import ky from 'ky';
import { classifyToolError, type ToolErrorClassification } from '../../src';
import { refusedPort, startFlakyServer, type FlakyServer } from '../helpers/flaky-server';

/** Runs `call`, which must fail, and classifies what it threw. */
async function classifyFailure(call: () => Promise<unknown>): Promise<ToolErrorClassification> {
  try {
    await call();
  } catch (err) {
    return classifyToolError(err);
  }
  throw new Error('expected the call to fail');
}

const statusCases: Array<[path: string, errorType: string, kind: string, retryAfterMs?: number]> = [
  ['/500', '500', 'transient'],
  ['/503', '503', 'transient'],
  ['/404', '404', 'permanent'],
  ['/401', '401', 'auth'],
  ['/403', '403', 'auth'],
  ['/402', '402', 'quota'],
  ['/408', '408', 'transient'],
  ['/422', '422', 'permanent'],
  ['/429?retryAfter=2', '429', 'rate_limit', 2000],
  ['/429', '429', 'quota'],
];

describe('classifyToolError on real HTTP client failures (127.0.0.1)', () => {
  let server: FlakyServer;
  let deadPort: number;
  before(async () => {
    server = await startFlakyServer();
    deadPort = await refusedPort();
  });
  after(() => server.close());

  const clients: Record<string, (url: string) => Promise<unknown>> = {
    axios: (url) => axios.get(url),
    got: (url) => got(url, { retry: { limit: 0 } }),
    ky: (url) => ky.get(url, { retry: 0 }),
    // fetch does not throw on an HTTP error: tools throw or return the Response itself.
    'fetch Response': async (url) => {
      const response = await fetch(url);
      if (!response.ok) throw response;
      return response;
    },
  };

  for (const [client, call] of Object.entries(clients)) {
    describe(client, () => {
      for (const [path, errorType, kind, retryAfterMs] of statusCases) {
        it(`${path} -> error.type ${errorType}, ${kind}`, async () => {
          const result = await classifyFailure(() => call(server.url + path));
          expect(result).to.include({
            errorType,
            kind,
            httpStatus: Number(errorType),
            evidence: 'http_status',
          });
          expect(result.retryAfterMs).to.equal(retryAfterMs);
        });
      }
    });
  }

  describe('timeouts', () => {
    it('fetch with AbortSignal.timeout (DOMException TimeoutError)', async () => {
      const result = await classifyFailure(() =>
        fetch(`${server.url}/hang`, { signal: AbortSignal.timeout(50) }),
      );
      expect(result).to.include({ errorType: 'timeout', kind: 'timeout', retryable: true, executed: true });
    });

    it('axios timeout (ECONNABORTED "timeout of …")', async () => {
      const result = await classifyFailure(() => axios.get(`${server.url}/hang`, { timeout: 50 }));
      expect(result).to.include({ errorType: 'timeout', kind: 'timeout' });
    });

    it('got timeout (TimeoutError, ETIMEDOUT)', async () => {
      const result = await classifyFailure(() =>
        got(`${server.url}/hang`, { timeout: { request: 50 }, retry: { limit: 0 } }),
      );
      expect(result).to.include({ errorType: 'timeout', kind: 'timeout' });
    });

    it('ky timeout (TimeoutError)', async () => {
      const result = await classifyFailure(() => ky.get(`${server.url}/hang`, { timeout: 50, retry: 0 }));
      expect(result).to.include({ errorType: 'timeout', kind: 'timeout' });
    });
  });

  describe('refused port', () => {
    it('fetch: TypeError "fetch failed" with an ECONNREFUSED cause', async () => {
      const result = await classifyFailure(() => fetch(`http://127.0.0.1:${deadPort}/`));
      expect(result).to.include({
        errorType: 'ECONNREFUSED',
        kind: 'network',
        retryable: true,
        evidence: 'code',
      });
    });

    it('axios', async () => {
      const result = await classifyFailure(() => axios.get(`http://127.0.0.1:${deadPort}/`));
      expect(result).to.include({ errorType: 'ECONNREFUSED', kind: 'network' });
    });

    it('got', async () => {
      const result = await classifyFailure(() =>
        got(`http://127.0.0.1:${deadPort}/`, { retry: { limit: 0 } }),
      );
      expect(result).to.include({ errorType: 'ECONNREFUSED', kind: 'network' });
    });
  });

  it('a caller abort that is not a timeout is canceled, not executed', async () => {
    const controller = new AbortController();
    const pending = classifyFailure(() => fetch(`${server.url}/hang`, { signal: controller.signal }));
    setTimeout(() => controller.abort(), 20);
    expect(await pending).to.include({ errorType: 'AbortError', kind: 'canceled', executed: false });
  });

  it('an unknown host is network (ENOTFOUND or EAI_AGAIN, never resolved here)', async () => {
    const result = await classifyFailure(() => fetch('http://no-such-host.invalid/'));
    expect(result.kind).to.equal('network');
    expect(result.errorType).to.be.oneOf(['ENOTFOUND', 'EAI_AGAIN']);
  });
});
