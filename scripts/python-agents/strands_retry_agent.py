"""A Strands Agents (Python) agent that retries a failed tool call, traced by Strands' own spans:
its weather API answers 503 to the first request for each city and 200 after. In one agent run the
scripted model calls get_weather for Lyon (503), again for Lyon after the error (200: an attempt of
the failed call), then for Paris (503: other arguments, no attempt), then twice for Nice in one
turn, which Strands runs concurrently (one 503, one 200: parallel calls, no attempts of each
other). Nothing in the app numbers attempts: the collector's tool_errors processor does, from the
arguments Strands records in the tool span's `gen_ai.tool.message` event. What one run sent, as
received, is the collector processor's test data (captures/strands-retry.json, read by
collector/toolerrorprocessor/attempts_test.go); scripts/e2e.sh runs it through the production
tiers and scripts/e2e-attempts.mjs checks what reaches Jaeger and the span metrics."""

import json
import os
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

os.environ.setdefault("OTEL_SERVICE_NAME", "python-strands-retry-agent")

from strands import Agent, tool
from strands.models.model import Model

from common import fetch, start_tracing


class _FailsOnce(BaseHTTPRequestHandler):
    seen = set()
    lock = threading.Lock()

    def do_GET(self):  # noqa: N802 (http.server's name)
        time.sleep(0.1)  # a remote API's latency: calls started together overlap
        with self.lock:
            first = self.path not in self.seen
            self.seen.add(self.path)
        body = b'{"ok": false}' if first else b'{"ok": true, "temperature": 21}'
        self.send_response(503 if first else 200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def start_api():
    server = ThreadingHTTPServer(("127.0.0.1", 0), _FailsOnce)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{server.server_address[1]}"


BASE = start_api()


@tool
def get_weather(city: str) -> dict:
    """The weather for a city."""
    return fetch(BASE, "/weather/" + city)  # by path: fetch sets the query (the API key)


# The get_weather calls of each turn, in order; the last turn's two run concurrently.
TURNS = [[{"city": "Lyon"}], [{"city": "Lyon"}], [{"city": "Paris"}], [{"city": "Nice"}, {"city": "Nice"}]]


class ScriptedModel(Model):
    """A custom model provider: the get_weather calls of one turn in TURNS a message, then text."""

    def __init__(self):
        self.config = {"model_id": "scripted"}

    def update_config(self, **model_config):
        self.config.update(model_config)

    def get_config(self):
        return self.config

    async def structured_output(self, output_model, prompt, system_prompt=None, **kwargs):
        raise NotImplementedError
        yield  # an async generator, as the interface declares

    async def stream(self, messages, tool_specs=None, system_prompt=None, **kwargs):
        turn = sum(1 for message in messages if any("toolResult" in block for block in message["content"]))
        yield {"messageStart": {"role": "assistant"}}
        if turn >= len(TURNS):
            yield {"contentBlockDelta": {"delta": {"text": "done"}}}
            yield {"contentBlockStop": {}}
            yield {"messageStop": {"stopReason": "end_turn"}}
            return
        for i, arguments in enumerate(TURNS[turn]):
            call = {"toolUseId": f"call_{turn}_{i}", "name": "get_weather"}
            yield {"contentBlockStart": {"start": {"toolUse": call}}}
            yield {"contentBlockDelta": {"delta": {"toolUse": {"input": json.dumps(arguments)}}}}
            yield {"contentBlockStop": {}}
        yield {"messageStop": {"stopReason": "tool_use"}}


def main():
    provider = start_tracing()  # Strands uses the global tracer provider
    agent = Agent(model=ScriptedModel(), tools=[get_weather], callback_handler=None, name="forecaster")
    result = agent("the weather in Lyon, then Paris, then Nice")
    print(f"strands retry: {str(result).strip()}", flush=True)
    provider.shutdown()


if __name__ == "__main__":
    main()
