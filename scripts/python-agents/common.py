"""What the Python agents share: a flaky HTTP server on 127.0.0.1, the OpenTelemetry SDK set up as
their users set it up (OTLP over HTTP, configured by the standard OTEL_* variables), and the tools'
HTTP calls, which fail for real."""

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
    """GET base+path; raises httpx's errors as a tool's HTTP call does."""
    response = httpx.get(base + path, timeout=timeout)
    response.raise_for_status()
    return response.json()
