// The failure shapes every framework's tools run, written as an app's own tool code would be.
// FLAKY_URL is a real HTTP server on 127.0.0.1, REFUSED_URL a port nothing listens on.

/** A fetch wrapper as apps write it: a failed status becomes a plain Error that says nothing of it. */
async function getOrThrow(path) {
  const response = await fetch(`${process.env.FLAKY_URL}${path}`);
  if (!response.ok) throw new Error('upstream failed');
  return response.json();
}

const LOCKED = 'the file is locked by another process';

/**
 * name -> tool body. `tools.axios` is the app's own axios (loaded in its module format);
 * `tools.returnedError(text)` builds the framework's own returned-error result.
 */
const shapes = {
  fetch_500: () => getOrThrow('/500'),
  axios_503: ({ axios }) => axios.get(`${process.env.FLAKY_URL}/503`).then((response) => response.data),
  fetch_429_retry_after: () => getOrThrow('/429?retryAfter=7'),
  // The same through node:http (instrumentation-http rather than -undici records the header).
  axios_429_retry_after: ({ axios }) =>
    axios.get(`${process.env.FLAKY_URL}/429?retryAfter=7`).then(
      (response) => response.data,
      () => {
        throw new Error('upstream failed');
      },
    ),
  fetch_429: () => getOrThrow('/429'),
  timeout: () =>
    fetch(`${process.env.FLAKY_URL}/hang`, { signal: AbortSignal.timeout(100) }).then((r) => r.json()),
  refused: () => fetch(process.env.REFUSED_URL).then((r) => r.json()),
  returned_error: ({ returnedError }) => returnedError(LOCKED),
  success: () => getOrThrow('/ok'),
};

module.exports = { shapes };
