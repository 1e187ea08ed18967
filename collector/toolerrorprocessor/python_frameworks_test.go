package toolerrorprocessor

import (
	"context"
	"testing"

	"go.opentelemetry.io/collector/pdata/ptrace"
)

// The tool spans of the Python frameworks the end-to-end suite runs (scripts/python-agents/), as
// each records them for real (attributes, status and events copied from their exports, URLs
// shortened), and what the processor writes on them: the answer the same failure gets in
// JavaScript where the span shows it.

type pyEvent struct {
	name       string
	attributes map[string]string
}

type pySpan struct {
	name        string
	attributes  map[string]string
	statusError bool
	statusOK    bool
	message     string
	events      []pyEvent
}

func pyException(typ, message string) pyEvent {
	return pyEvent{"exception", map[string]string{"exception.type": typ, "exception.message": message}}
}

func classifyPySpan(t *testing.T, s pySpan) (map[string]any, ptrace.Status) {
	t.Helper()
	p, err := newToolErrors(createDefaultConfig().(*Config))
	if err != nil {
		t.Fatal(err)
	}
	td := ptrace.NewTraces()
	span := td.ResourceSpans().AppendEmpty().ScopeSpans().AppendEmpty().Spans().AppendEmpty()
	span.SetName(s.name)
	for k, v := range s.attributes {
		span.Attributes().PutStr(k, v)
	}
	switch {
	case s.statusError:
		span.Status().SetCode(ptrace.StatusCodeError)
		span.Status().SetMessage(s.message)
	case s.statusOK:
		span.Status().SetCode(ptrace.StatusCodeOk)
	}
	for _, e := range s.events {
		event := span.Events().AppendEmpty()
		event.SetName(e.name)
		for k, v := range e.attributes {
			event.Attributes().PutStr(k, v)
		}
	}
	if _, err := p.processTraces(context.Background(), td); err != nil {
		t.Fatal(err)
	}
	return span.Attributes().AsRaw(), span.Status()
}

func strandsSpan(tool string, errorText string, exc *pyEvent, result string) pySpan {
	s := pySpan{
		name: "execute_tool " + tool,
		attributes: map[string]string{
			"gen_ai.operation.name": "execute_tool", "gen_ai.system": "strands-agents",
			"gen_ai.tool.name": tool, "gen_ai.tool.call.id": "call_" + tool, "gen_ai.tool.status": "success",
		},
		statusOK: true,
		events:   []pyEvent{{"gen_ai.tool.message", map[string]string{"role": "tool", "content": "{}", "id": "call_" + tool}}},
	}
	if exc != nil {
		s.attributes["gen_ai.tool.status"] = "error"
		s.statusOK, s.statusError, s.message = false, true, errorText
		result = `[{"text": "Error: ` + errorText + `"}]`
	}
	s.events = append(s.events, pyEvent{"gen_ai.choice", map[string]string{"message": result, "id": "call_" + tool}})
	if exc != nil {
		s.events = append(s.events, *exc)
	}
	return s
}

func agentFrameworkSpan(tool, class, repr string, exc *pyEvent, result string) pySpan {
	s := pySpan{
		name: "execute_tool " + tool,
		attributes: map[string]string{
			"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": tool, "gen_ai.tool.type": "function",
		},
	}
	if class != "" {
		s.attributes["error.type"] = class
		s.statusError, s.message = true, repr
	}
	if exc != nil {
		s.events = append(s.events, *exc)
	}
	if result != "" {
		s.attributes["gen_ai.tool.call.result"] = result
	}
	return s
}

const (
	py503     = "Server error '503 Service Unavailable' for url 'http://127.0.0.1:8080/503/weather?city=Lyon'\nFor more information check: https://developer.mozilla.org/en-US/docs/Web/HTTP/Status/503"
	py429     = "Client error '429 Too Many Requests' for url 'http://127.0.0.1:8080/429/news?q=otel'\nFor more information check: https://developer.mozilla.org/en-US/docs/Web/HTTP/Status/429"
	pyRefused = "[Errno 111] Connection refused"
	returned  = `{"error": "order service answered HTTP 503 Service Unavailable"}`
)

func TestPythonFrameworksOfTheEndToEndSuite(t *testing.T) {
	e503 := pyException("httpx.HTTPStatusError", py503)
	e429 := pyException("httpx.HTTPStatusError", py429)
	eTimeout := pyException("httpx.ReadTimeout", "timed out")
	eRefused := pyException("httpx.ConnectError", pyRefused)
	cases := []struct {
		name            string
		span            pySpan
		errorType, kind string
		frameworkType   string // tool.error_framework_type: the class that gave way, where no event keeps it
	}{
		// Strands Agents 1.62: no error.type; a raised error's text in the status and an exception
		// event; a returned error only in the gen_ai.choice event, the span OK.
		{"strands 503", strandsSpan("get_weather", py503, &e503, ""), "503", "transient", ""},
		{"strands 429", strandsSpan("search_news", py429, &e429, ""), "429", "rate_limit", ""},
		{"strands timeout", strandsSpan("get_stock", "timed out", &eTimeout, ""), "timeout", "timeout", ""},
		// Python's refused connection says it in the C library's words ("[Errno 111] Connection
		// refused"): the code Node prints for it, as in JavaScript.
		{"strands refused", strandsSpan("get_rates", pyRefused, &eRefused, ""), "ECONNREFUSED", "network", ""},
		{"strands returned", strandsSpan("lookup_order", "", nil, `[{"text": "{\"error\": \"order service answered HTTP 503 Service Unavailable\"}"}]`), "503", "transient", ""},
		// Microsoft Agent Framework 1.23 with sensitive data on: error.type is the class name, the
		// status its repr, an exception event; a returned result in gen_ai.tool.call.result.
		{"agent-framework 503", agentFrameworkSpan("get_weather", "HTTPStatusError", `HTTPStatusError("`+py503+`")`, &e503, ""), "503", "transient", ""},
		{"agent-framework 429", agentFrameworkSpan("search_news", "HTTPStatusError", `HTTPStatusError("`+py429+`")`, &e429, ""), "429", "rate_limit", ""},
		{"agent-framework timeout", agentFrameworkSpan("get_stock", "ReadTimeout", "ReadTimeout('timed out')", &eTimeout, ""), "timeout", "timeout", "ReadTimeout"},
		{"agent-framework refused", agentFrameworkSpan("get_rates", "ConnectError", "ConnectError('[Errno 111] Connection refused')", &eRefused, ""), "ECONNREFUSED", "network", "ConnectError"},
		{"agent-framework returned", agentFrameworkSpan("lookup_order", "", "", nil, returned), "503", "transient", ""},
		// Without sensitive data, the framework's default: error.type and status ERROR alone. The
		// class is all there is: it stays, and gives the kind it names (httpx's HTTPStatusError names
		// none: internal).
		{"agent-framework 503, no sensitive data", agentFrameworkSpan("get_weather", "HTTPStatusError", "", nil, ""), "HTTPStatusError", "internal", ""},
		{"agent-framework timeout, no sensitive data", agentFrameworkSpan("get_stock", "ReadTimeout", "", nil, ""), "ReadTimeout", "timeout", ""},
		{"agent-framework refused, no sensitive data", agentFrameworkSpan("get_rates", "ConnectError", "", nil, ""), "ConnectError", "network", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			attributes, status := classifyPySpan(t, c.span)
			if attributes["error.type"] != c.errorType || (c.kind != "" && attributes["tool.error_kind"] != c.kind) {
				t.Errorf("error.type=%v tool.error_kind=%v, want %s %s", attributes["error.type"], attributes["tool.error_kind"], c.errorType, c.kind)
			}
			if c.frameworkType != "" && attributes["tool.error_framework_type"] != c.frameworkType {
				t.Errorf("tool.error_framework_type=%v, want %s", attributes["tool.error_framework_type"], c.frameworkType)
			}
			if status.Code() != ptrace.StatusCodeError {
				t.Errorf("status %v, want ERROR", status.Code())
			}
			t.Logf("error.type=%v tool.error_kind=%v tool.error_framework_type=%v status %q", attributes["error.type"], attributes["tool.error_kind"], attributes["tool.error_framework_type"], status.Message())
		})
	}
}
