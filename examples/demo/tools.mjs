import { tool } from 'ai';
import { z } from 'zod';

/** Thrown for a non-2xx answer; keeps the status and headers, as HTTP clients' errors do. */
class HttpError extends Error {
  constructor(url, response) {
    super(`GET ${url.pathname} answered ${response.status} ${response.statusText}`);
    this.name = 'HttpError';
    this.status = response.status;
    this.headers = response.headers;
  }
}

async function getJson(url, timeoutMs = 2000) {
  const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
  if (!response.ok) throw new HttpError(url, response);
  return response.json();
}

/**
 * The agent's tools. Each calls the local flaky service the way a real tool calls its API, so each
 * fails for a real reason: an HTTP status, a timeout, a refused connection, or an MCP error result.
 */
export function createTools({ serviceUrl, refusedUrl, mcpClient }) {
  const service = (path) => new URL(path, serviceUrl);
  return {
    get_time: tool({
      description: 'The current time in a time zone.',
      inputSchema: z.object({ timeZone: z.string() }),
      execute: async ({ timeZone }) => ({ time: new Date().toLocaleTimeString('en-GB', { timeZone }) }),
    }),
    convert_currency: tool({
      description: 'Convert an amount between currencies.',
      inputSchema: z.object({ amount: z.number(), from: z.string(), to: z.string() }),
      execute: async () => getJson(service('/ok')),
    }),
    get_weather: tool({
      description: 'The weather forecast for a city.',
      inputSchema: z.object({ city: z.string() }),
      execute: async () => getJson(service('/500')),
    }),
    get_stock_quote: tool({
      description: 'The latest quote for a ticker.',
      inputSchema: z.object({ ticker: z.string() }),
      execute: async () => getJson(service('/503')),
    }),
    lookup_user: tool({
      description: 'A user profile by id.',
      inputSchema: z.object({ userId: z.string() }),
      execute: async () => getJson(service('/404')),
    }),
    read_inbox: tool({
      description: "The user's unread mail.",
      inputSchema: z.object({ folder: z.string() }),
      execute: async () => getJson(service('/401')),
    }),
    search_web: tool({
      description: 'Search the web.',
      inputSchema: z.object({ query: z.string() }),
      execute: async () => getJson(service('/429?retryAfter=30')),
    }),
    translate_text: tool({
      description: 'Translate text.',
      inputSchema: z.object({ text: z.string(), to: z.string() }),
      execute: async () => getJson(service('/429')),
    }),
    fetch_news: tool({
      description: 'Headlines on a topic.',
      inputSchema: z.object({ topic: z.string() }),
      execute: async () => getJson(service('/hang'), 300),
    }),
    query_inventory: tool({
      description: 'Stock level of a product.',
      inputSchema: z.object({ sku: z.string() }),
      execute: async () => getJson(new URL('/inventory', refusedUrl)),
    }),
    book_flight: tool({
      description: 'Book a flight between two airports.',
      inputSchema: z.object({ from: z.string().length(3), to: z.string().length(3), date: z.iso.date() }),
      execute: async ({ from, to, date }) => ({ booked: `${from}-${to} on ${date}` }),
    }),
    mcp_lookup: tool({
      description: 'Look a person up in the company directory (an MCP server).',
      inputSchema: z.object({ name: z.string() }),
      execute: async (args) => mcpClient.callTool({ name: 'mcp_lookup', arguments: args }),
    }),
  };
}
