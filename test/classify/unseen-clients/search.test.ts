import { algoliasearch } from 'algoliasearch';
import { Meilisearch } from 'meilisearch';
import Typesense from 'typesense';
import { corpusEnv } from '../corpus/corpus';
import { unseenCases, unseenSuite } from './unseen';

describe('unseen clients: search engines', () => {
  const env = corpusEnv();
  unseenSuite([
    {
      pkg: 'meilisearch',
      cases: () => {
        const getDocument = (url: string, timeout?: number) =>
          new Meilisearch({ host: url, apiKey: 'masterKey', timeout }).index('movies').getDocument(1);
        // Meilisearch's error body: message, code, type and link (its docs, "Errors").
        const error = {
          429: ['Too many requests.', 'too_many_requests', 'system'],
          503: ['Meilisearch is unavailable, try again later.', 'unavailable', 'system'],
          401: ['The provided API key is invalid.', 'invalid_api_key', 'auth'],
          404: ['Index `movies` not found.', 'index_not_found', 'invalid_request'],
        };
        return unseenCases(env, {
          call: (url) => getDocument(url),
          // The client's `timeout` aborts its fetch with a symbol of its own, then wraps the error.
          callWithTimeout: (url, ms) => getDocument(url, ms),
          body: (status) => {
            const [message, code, type] = error[status as keyof typeof error];
            return { message, code, type, link: `https://docs.meilisearch.com/errors#${code}` };
          },
        });
      },
    },
    {
      pkg: 'typesense',
      cases: () => {
        const retrieve = (url: string, timeoutSeconds = 5) => {
          const { hostname, port } = new URL(url);
          return new Typesense.Client({
            nodes: [{ host: hostname, port: Number(port), protocol: 'http' }],
            apiKey: 'xyz',
            numRetries: 0,
            connectionTimeoutSeconds: timeoutSeconds,
            logLevel: 'silent',
          })
            .collections('books')
            .retrieve();
        };
        // Typesense's error body is `{ message }` (a 503 is its "Not Ready or Lagging").
        const message = {
          429: 'Rate limit exceeded or blocked',
          503: 'Not Ready or Lagging',
          401: 'Forbidden - a valid `x-typesense-api-key` header must be sent.',
          404: 'Not Found',
        };
        return unseenCases(env, {
          call: (url) => retrieve(url),
          // `connectionTimeoutSeconds` is its axios `timeout`, in seconds.
          callWithTimeout: (url, ms) => retrieve(url, ms / 1000),
          body: (status) => ({ message: message[status as keyof typeof message] }),
        });
      },
    },
    {
      pkg: 'algoliasearch',
      cases: () => {
        const getObject = (url: string, timeoutMs = 2000) => {
          const { host } = new URL(url);
          return algoliasearch('APPID', 'search-key', {
            hosts: [{ url: host, protocol: 'http', accept: 'readWrite' }],
            timeouts: { connect: timeoutMs, read: timeoutMs, write: timeoutMs },
            // Otherwise a 429 is retried on the same host after its Retry-After (types lack it).
            ...({ maxRateLimitRetries: 0 } as object),
          }).getObject({ indexName: 'products', objectID: '1' });
        };
        // Algolia's error body: `{ message, status }`.
        const message = {
          429: 'Too many requests',
          503: 'Service Unavailable',
          401: 'Invalid Application-ID or API key',
          404: 'ObjectID does not exist',
        };
        return unseenCases(env, {
          // A 5xx, a timeout and a refused connection send the client to its next host; with one
          // host it throws its `RetryError` ("Unreachable hosts"), the attempts in `stackTrace`.
          call: (url) => getObject(url),
          callWithTimeout: (url, ms) => getObject(url, ms),
          body: (status) => ({ message: message[status as keyof typeof message], status }),
        });
      },
    },
  ]);
});
