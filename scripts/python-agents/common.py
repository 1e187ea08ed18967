"""What the Python agents share: a flaky HTTP server on 127.0.0.1, the OpenTelemetry SDK set up as
their users set it up (OTLP over HTTP, configured by the standard OTEL_* variables), and the tools'
HTTP calls, which fail for real."""

import os
import socket
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import httpx
from opentelemetry import trace
from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import BatchSpanProcessor


class _Flaky(BaseHTTPRequestHandler):
    def do_GET(self):  # noqa: N802 (http.server's name)
        if self.path.startswith("/500"):
            self._answer(500, {})
        elif self.path.startswith("/503"):
            self._answer(503, {})
        elif self.path.startswith("/429"):
            self._answer(429, {"Retry-After": "2"})
        elif self.path.startswith("/slow"):
            time.sleep(2)
            self._answer(200, {})
        else:
            self._answer(200, {})

    def _answer(self, status, headers):
        body = b'{"ok": %s}' % (b"true" if status == 200 else b"false")
        try:
            self.send_response(status)
            for name, value in headers.items():
                self.send_header(name, value)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client gave up (its timeout)

    def log_message(self, *args):
        pass


def start_server():
    """The flaky server on a free 127.0.0.1 port; returns its base URL."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Flaky)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{server.server_address[1]}"


def refused_url():
    """A 127.0.0.1 URL whose port was just closed: a connection to it is refused."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return f"http://127.0.0.1:{port}"


def start_tracing():
    """The SDK with an OTLP/HTTP exporter, configured by the OTEL_* variables
    (OTEL_SERVICE_NAME, OTEL_EXPORTER_OTLP_ENDPOINT); returns the provider."""
    provider = TracerProvider(resource=Resource.create())
    provider.add_span_processor(BatchSpanProcessor(OTLPSpanExporter()))
    trace.set_tracer_provider(provider)
    return provider


def fetch(base, path, timeout=5.0):
    """GET base+path with the API key in the query, as many APIs take it; raises httpx's errors as a
    tool's HTTP call does (their texts quote the URL: the collector must scrub the key)."""
    key = os.environ.get("E2E_AGENT_SECRET", "not-a-real-key")
    response = httpx.get(base + path, params={"api_key": key}, timeout=timeout)
    response.raise_for_status()
    return response.json()


def http_tools(weather_status):
    """The tools every agent offers, as plain functions (each framework's decorator takes them as
    they are), failing for real: get_weather on `weather_status` (500 or 503), search_news on a 429
    with Retry-After, get_stock on a client timeout, get_rates on a refused connection."""
    base, refused = start_server(), refused_url()

    def get_weather(city: str) -> dict:
        """The weather for a city."""
        return fetch(base, f"/{weather_status}/weather?city=" + city)

    def search_news(query: str) -> dict:
        """News about a topic."""
        return fetch(base, "/429/news?q=" + query)

    def get_stock(symbol: str) -> dict:
        """A stock's price."""
        return fetch(base, "/slow/stock?symbol=" + symbol, timeout=0.3)

    def get_rates(currency: str) -> dict:
        """Exchange rates, from a service that is down."""
        return fetch(refused, "/rates?base=" + currency)

    return [get_weather, search_news, get_stock, get_rates]


# One run per tool: its name and the arguments the scripted model calls it with.
CALLS = [("get_weather", {"city": "Lyon"}), ("search_news", {"query": "otel"}),
         ("get_stock", {"symbol": "ACME"}), ("get_rates", {"currency": "EUR"}),
         ("lookup_order", {"order_id": "42"})]
