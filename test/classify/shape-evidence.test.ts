import { expect } from 'chai';
import { classifyToolError } from '../../src';

/** Evidence by shape that the generated test does not place: signals, delays in text, name parts. */
describe('classifyToolError: evidence by shape', () => {
  const abortError = () => new DOMException('This operation was aborted', 'AbortError');

  it("an abort whose request options keep an aborted signal with a TimeoutError reason is the client's timeout", () => {
    const signal = AbortSignal.abort(new DOMException('The operation timed out.', 'TimeoutError'));
    const err = Object.assign(new Error('request aborted', { cause: abortError() }), {
      options: { timeout: 100, signal },
    });
    expect(classifyToolError(err)).to.include({ errorType: 'timeout', kind: 'timeout' });
  });

  it("an abort whose signal's reason is a plain abort stays canceled", () => {
    const signal = AbortSignal.abort();
    const err = Object.assign(new Error('request aborted', { cause: abortError() }), { options: { signal } });
    expect(classifyToolError(err)).to.include({ kind: 'canceled' });
  });

  it('follows a cause under keys other than cause, only when they hold an error', () => {
    const inner = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' });
    for (const key of ['sourceError', 'originalError', 'innerError', 'err']) {
      const err = Object.assign(new Error('request failed'), { [key]: inner });
      expect(classifyToolError(err), key).to.include({ errorType: 'ECONNREFUSED', kind: 'network' });
    }
    const notAnError = Object.assign(new Error('request failed'), { err: { code: 'ECONNREFUSED' } });
    expect(classifyToolError(notAnError).errorType).to.not.equal('ECONNREFUSED');
  });

  it('reads the errors a link holds where it owns them: a getter its class defines under such a name is never run', () => {
    let getterRuns = 0;
    class WrappingError extends Error {
      get originalError(): Error {
        getterRuns++;
        return Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' });
      }
    }
    const classified = classifyToolError(new WrappingError('request failed'));
    expect(getterRuns).to.equal(0);
    expect(classified.errorType).to.not.equal('ECONNREFUSED');
    // The same error held as the link's own property is followed.
    const inner = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' });
    const owned = Object.assign(new Error('request failed'), { originalError: inner });
    expect(classifyToolError(owned)).to.include({ errorType: 'ECONNREFUSED', kind: 'network' });
  });

  it('reads a retry delay from the text of a 429, in its unit', () => {
    const delay = (message: string) => classifyToolError(Object.assign(new Error(message), { status: 429 }));
    expect(delay('Rate limit exceeded, retry after 2s')).to.include({
      kind: 'rate_limit',
      retryAfterMs: 2000,
    });
    expect(delay('Please try again in 20 seconds.')).to.include({ kind: 'rate_limit', retryAfterMs: 20_000 });
    expect(delay('Too many requests; retry in 250ms')).to.include({ kind: 'rate_limit', retryAfterMs: 250 });
    expect(delay('Slow down: try again in 1 minute')).to.include({
      kind: 'rate_limit',
      retryAfterMs: 60_000,
    });
  });

  it('a Retry-After under $response.headers or a retryAfter property makes a 429 a rate limit', () => {
    const smithy = Object.assign(new Error('Throttled'), {
      $response: { statusCode: 429, headers: { 'retry-after': '3', 'content-type': 'application/json' } },
    });
    expect(classifyToolError(smithy)).to.include({
      errorType: '429',
      kind: 'rate_limit',
      retryAfterMs: 3000,
    });
    const property = Object.assign(new Error('Too Many Requests'), { status_code: 429, retryAfter: 5 });
    expect(classifyToolError(property)).to.include({ kind: 'rate_limit', retryAfterMs: 5000 });
  });

  it('a quota code stays quota whatever delay comes with it', () => {
    const err = Object.assign(new Error('You exceeded your current quota'), {
      status: 429,
      code: 'insufficient_quota',
      headers: { 'retry-after': '2' },
    });
    expect(classifyToolError(err).kind).to.equal('quota');
  });

  it('a status only in a header dump copied into the message is no status, and its Keep-Alive no timeout', () => {
    const err = new Error(
      'Request failed.\nResponse headers:\ncontent-type: application/json\nconnection: keep-alive\nkeep-alive: timeout=5\ncontent-length: 503',
    );
    const found = classifyToolError(err);
    expect(found.httpStatus).to.equal(undefined);
    expect(found.kind).to.not.equal('timeout');
  });

  it('class names by their parts, where nothing stronger is there', () => {
    const named = (name: string) => {
      const err = new Error('failed');
      err.name = name;
      return classifyToolError(err);
    };
    expect(named('MeiliSearchCommunicationError')).to.include({ kind: 'network' });
    expect(named('VectorStoreConnectionError')).to.include({ kind: 'network' });
    expect(named('SearchRequestTimeoutError')).to.include({ kind: 'timeout', errorType: 'timeout' });
    expect(named('IndexNotFoundError')).to.include({ kind: 'permanent' });
    expect(named('TokenUnauthorizedError')).to.include({ kind: 'auth' });
    expect(named('ProjectForbiddenException')).to.include({ kind: 'auth' });
    expect(named('UpstreamRateLimitError')).to.include({ kind: 'rate_limit' });
    // A status on the error outranks the name.
    const withStatus = Object.assign(new Error('failed'), { name: 'IndexNotFoundError', status: 503 });
    expect(classifyToolError(withStatus)).to.include({ errorType: '503', kind: 'transient' });
    // Not a failure's name: the class fallback.
    expect(named('ConnectionPool')).to.include({ kind: 'internal' });
  });
});
