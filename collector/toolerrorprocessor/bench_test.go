package toolerrorprocessor

import (
	"context"
	"encoding/binary"
	"testing"

	"go.opentelemetry.io/collector/consumer"
	"go.opentelemetry.io/collector/consumer/consumertest"
	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/ptrace"
	"go.opentelemetry.io/collector/processor"
	"go.opentelemetry.io/collector/processor/processorhelper"
	"go.opentelemetry.io/collector/processor/processortest"
)

// The processor's cost a span, against a pass-through processor built the same way
// (processorhelper, MutatesData), on batches of 100 traces:
//   - non-tool spans: an HTTP server span with a database call and an HTTP call under it;
//   - failed tool spans: a Python agent's execute_tool span with an exception, over a failed
//     HTTP client span (the HTTP child rule runs);
//   - the same with a Python traceback as requests raises it, 1.6 KB, in the exception event and
//     (as OpenInference writes it) in the status message: the scrubber reads all of it.
// `go test -bench . -benchmem` prints ns/op for the batch and ns/span.

const benchTraces = 100

const shortStack = "Traceback (most recent call last):\n  File \"tools.py\", line 3"

// requestsStack: what a tool calling raise_for_status() after a 503 records.
var requestsStack = "Traceback (most recent call last):\n" +
	"  File \"/app/agent/tools.py\", line 41, in get_weather\n" +
	"    response = session.get(f\"{WEATHER_API}/v1/forecast\", params={\"city\": city}, timeout=5)\n" +
	"  File \"/app/.venv/lib/python3.11/site-packages/requests/sessions.py\", line 602, in get\n" +
	"    return self.request(\"GET\", url, **kwargs)\n" +
	"  File \"/app/.venv/lib/python3.11/site-packages/requests/sessions.py\", line 589, in request\n" +
	"    resp = self.send(prep, **send_kwargs)\n" +
	"  File \"/app/.venv/lib/python3.11/site-packages/requests/sessions.py\", line 703, in send\n" +
	"    r = adapter.send(request, **kwargs)\n" +
	"  File \"/app/.venv/lib/python3.11/site-packages/requests/adapters.py\", line 667, in send\n" +
	"    resp = conn.urlopen(\n" +
	"  File \"/app/agent/tools.py\", line 43, in get_weather\n" +
	"    response.raise_for_status()\n" +
	"  File \"/app/.venv/lib/python3.11/site-packages/requests/models.py\", line 1024, in raise_for_status\n" +
	"    raise HTTPError(http_error_msg, response=self)\n" +
	"requests.exceptions.HTTPError: 503 Server Error: Service Unavailable for url: " +
	"https://weather.example.com/v1/forecast?city=Lyon&units=metric\n"

func benchBatch(tool bool) ptrace.Traces {
	return benchBatchWith(tool, shortStack, "ValueError: weather service failed")
}

func benchBatchWith(tool bool, stack, status string) ptrace.Traces {
	td := ptrace.NewTraces()
	rs := td.ResourceSpans().AppendEmpty()
	rs.Resource().Attributes().PutStr("service.name", "bench")
	spans := rs.ScopeSpans().AppendEmpty().Spans()
	var next uint64
	newSpan := func(trace pcommon.TraceID, parent pcommon.SpanID, name string, kind ptrace.SpanKind) ptrace.Span {
		next++
		var id pcommon.SpanID
		binary.BigEndian.PutUint64(id[:], next)
		s := spans.AppendEmpty()
		s.SetTraceID(trace)
		s.SetSpanID(id)
		s.SetParentSpanID(parent)
		s.SetName(name)
		s.SetKind(kind)
		s.SetStartTimestamp(pcommon.Timestamp(next * 1000))
		s.SetEndTimestamp(pcommon.Timestamp(next*1000 + 500))
		return s
	}
	for i := 0; i < benchTraces; i++ {
		var trace pcommon.TraceID
		binary.BigEndian.PutUint64(trace[:8], uint64(i+1))
		if tool {
			t := newSpan(trace, pcommon.NewSpanIDEmpty(), "execute_tool get_weather", ptrace.SpanKindInternal)
			t.Attributes().PutStr("gen_ai.operation.name", "execute_tool")
			t.Attributes().PutStr("gen_ai.tool.name", "get_weather")
			t.Attributes().PutStr("gen_ai.tool.call.id", "call_123")
			t.Status().SetCode(ptrace.StatusCodeError)
			t.Status().SetMessage(status)
			e := t.Events().AppendEmpty()
			e.SetName("exception")
			e.Attributes().PutStr("exception.type", "ValueError")
			e.Attributes().PutStr("exception.message", "weather service failed")
			e.Attributes().PutStr("exception.stacktrace", stack)
			h := newSpan(trace, t.SpanID(), "GET", ptrace.SpanKindClient)
			h.Attributes().PutStr("http.request.method", "GET")
			h.Attributes().PutStr("url.full", "http://127.0.0.1:8080/weather?city=Lyon")
			h.Attributes().PutInt("http.response.status_code", 503)
			h.Attributes().PutStr("error.type", "503")
			h.Status().SetCode(ptrace.StatusCodeError)
			continue
		}
		root := newSpan(trace, pcommon.NewSpanIDEmpty(), "GET /orders/{id}", ptrace.SpanKindServer)
		root.Attributes().PutStr("http.request.method", "GET")
		root.Attributes().PutStr("http.route", "/orders/{id}")
		root.Attributes().PutInt("http.response.status_code", 200)
		root.Attributes().PutStr("url.scheme", "https")
		root.Attributes().PutStr("server.address", "shop.example.com")
		db := newSpan(trace, root.SpanID(), "SELECT orders", ptrace.SpanKindClient)
		db.Attributes().PutStr("db.system.name", "postgresql")
		db.Attributes().PutStr("db.query.text", "SELECT * FROM orders WHERE id = $1")
		db.Attributes().PutStr("db.collection.name", "orders")
		h := newSpan(trace, root.SpanID(), "GET", ptrace.SpanKindClient)
		h.Attributes().PutStr("http.request.method", "GET")
		h.Attributes().PutStr("url.full", "https://payments.example.com/v1/status")
		h.Attributes().PutInt("http.response.status_code", 200)
	}
	return td
}

func newBenchProcessor(b *testing.B, f processorhelper.ProcessTracesFunc) processor.Traces {
	set := processortest.NewNopSettings(Type)
	p, err := processorhelper.NewTraces(context.Background(), set, createDefaultConfig(), consumertest.NewNop(), f,
		processorhelper.WithCapabilities(consumer.Capabilities{MutatesData: true}))
	if err != nil {
		b.Fatal(err)
	}
	return p
}

func runBench(b *testing.B, batch ptrace.Traces, f processorhelper.ProcessTracesFunc) {
	p := newBenchProcessor(b, f)
	spans := batch.SpanCount()
	work := ptrace.NewTraces()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		batch.CopyTo(work) // a fresh batch: a classified span is never classified again
		b.StartTimer()
		if err := p.ConsumeTraces(context.Background(), work); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*spans), "ns/span")
}

func passThrough(_ context.Context, td ptrace.Traces) (ptrace.Traces, error) { return td, nil }

func BenchmarkNonToolSpans(b *testing.B) {
	b.Run("pass-through", func(b *testing.B) { runBench(b, benchBatch(false), passThrough) })
	b.Run("tool_errors", func(b *testing.B) { runBench(b, benchBatch(false), newTestProcessor(b).processTraces) })
}

func BenchmarkFailedToolSpans(b *testing.B) {
	b.Run("pass-through", func(b *testing.B) { runBench(b, benchBatch(true), passThrough) })
	b.Run("tool_errors", func(b *testing.B) { runBench(b, benchBatch(true), newTestProcessor(b).processTraces) })
}

func BenchmarkFailedToolSpansWithTracebacks(b *testing.B) {
	// OpenInference's status: LangChain's repr(error), then the whole traceback.
	status := "HTTPError('503 Server Error: Service Unavailable for url: " +
		"https://weather.example.com/v1/forecast?city=Lyon&units=metric')" + requestsStack
	batch := benchBatchWith(true, requestsStack, status)
	b.Run("pass-through", func(b *testing.B) { runBench(b, batch, passThrough) })
	b.Run("tool_errors", func(b *testing.B) { runBench(b, batch, newTestProcessor(b).processTraces) })
}
