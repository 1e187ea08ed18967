import axios from 'axios';
import got from 'got';
import ky from 'ky';
import nodeFetch from 'node-fetch';
import superagent from 'superagent';
import { Agent, interceptors, request as undiciRequest } from 'undici';
import { corpusEnv, corpusSuite, httpCases } from './corpus';

const body = (status: number) => ({ error: `status ${status}` });

describe('classifier corpus: generic HTTP clients', () => {
  const env = corpusEnv();
  corpusSuite([
    {
      pkg: 'node',
      label: 'fetch (Node)',
      cases: () => {
        // fetch does not throw on an HTTP error: the tool throws the Response.
        const get = async (url: string, signal?: AbortSignal) => {
          const response = await fetch(`${url}/items`, { signal });
          if (!response.ok) throw response;
        };
        return httpCases(env, {
          call: (url) => get(url),
          callWithTimeout: (url, ms) => get(url, AbortSignal.timeout(ms)),
          body,
        });
      },
    },
    {
      pkg: 'undici',
      cases: () => {
        // undici's request does not throw on an HTTP error unless the responseError interceptor is composed in.
        const get = (url: string, headersTimeout?: number) =>
          undiciRequest(`${url}/items`, {
            dispatcher: new Agent({ headersTimeout }).compose(interceptors.responseError()),
          });
        return httpCases(env, {
          call: (url) => get(url),
          callWithTimeout: (url, ms) => get(url, ms),
          body,
        });
      },
    },
    {
      pkg: 'axios',
      cases: () =>
        httpCases(env, {
          call: (url) => axios.get(`${url}/items`),
          callWithTimeout: (url, ms) => axios.get(`${url}/items`, { timeout: ms }),
          body,
        }),
    },
    {
      pkg: 'got',
      cases: () =>
        httpCases(env, {
          call: (url) => got(`${url}/items`, { retry: { limit: 0 } }),
          callWithTimeout: (url, ms) =>
            got(`${url}/items`, { retry: { limit: 0 }, timeout: { request: ms } }),
          body,
        }),
    },
    {
      pkg: 'ky',
      cases: () =>
        httpCases(env, {
          call: (url) => ky.get(`${url}/items`, { retry: 0 }),
          callWithTimeout: (url, ms) => ky.get(`${url}/items`, { retry: 0, timeout: ms }),
          body,
        }),
    },
    {
      pkg: 'node-fetch',
      cases: () =>
        httpCases(env, {
          call: async (url) => {
            const response = await nodeFetch(`${url}/items`);
            if (!response.ok) throw response;
          },
          // node-fetch 3 dropped its timeout option.
          body,
        }),
    },
    {
      pkg: 'superagent',
      cases: () =>
        httpCases(env, {
          call: (url) => superagent.get(`${url}/items`).retry(0),
          callWithTimeout: (url, ms) => superagent.get(`${url}/items`).retry(0).timeout(ms),
          body,
        }),
    },
  ]);
});
