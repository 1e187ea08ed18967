"""A Strands Agents (Python) agent that retries a failed tool call, traced by Strands' own spans:
its weather API answers 503 to the first request for each city and 200 after. In one agent run the
scripted model calls get_weather for Lyon (503), again for Lyon after the error (200: an attempt of
the failed call), then for Paris (503: other arguments, no attempt). Nothing in the app numbers
attempts: the collector's tool_errors processor does, from the arguments Strands records in the
tool span's `gen_ai.tool.message` event. What one run sent, as received, is the collector
processor's test data (captures/strands-retry.json, read by
collector/toolerrorprocessor/attempts_test.go)."""

import json
import os
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

os.environ.setdefault("OTEL_SERVICE_NAME", "python-strands-retry-agent")

from strands import Agent, tool
from strands.models.model import Model

from common import fetch, start_tracing


class _FailsOnce(BaseHTTPRequestHandler):
    seen = set()
    lock = threading.Lock()

    def do_GET(self):  # noqa: N802 (http.server's name)
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
    return fetch(BASE, "/weather?city=" + city)


CALLS = [{"city": "Lyon"}, {"city": "Lyon"}, {"city": "Paris"}]


class ScriptedModel(Model):
    """A custom model provider: one get_weather call a turn, in CALLS' order, then text."""

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
        answered = sum(1 for message in messages for block in message["content"] if "toolResult" in block)
        yield {"messageStart": {"role": "assistant"}}
        if answered >= len(CALLS):
            yield {"contentBlockDelta": {"delta": {"text": "done"}}}
            yield {"contentBlockStop": {}}
            yield {"messageStop": {"stopReason": "end_turn"}}
            return
        call = {"toolUseId": f"call_{answered}", "name": "get_weather"}
        yield {"contentBlockStart": {"start": {"toolUse": call}}}
        yield {"contentBlockDelta": {"delta": {"toolUse": {"input": json.dumps(CALLS[answered])}}}}
        yield {"contentBlockStop": {}}
        yield {"messageStop": {"stopReason": "tool_use"}}


def main():
    provider = start_tracing()  # Strands uses the global tracer provider
    agent = Agent(model=ScriptedModel(), tools=[get_weather], callback_handler=None, name="forecaster")
    result = agent("the weather in Lyon, then Paris")
    print(f"strands retry: {str(result).strip()}", flush=True)
    provider.shutdown()


if __name__ == "__main__":
    main()
