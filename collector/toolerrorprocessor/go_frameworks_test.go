package toolerrorprocessor

import (
	"context"
	"strings"
	"testing"

	"go.opentelemetry.io/collector/pdata/ptrace"
)

// The tool spans of Genkit for Go (scripts/go-agent/) as it records them for real, copied from
// its OTLP export (ports shortened), and what the processor writes on them: what the same failure
// gets in JavaScript. Genkit writes no error.type; a failed tool's span has status ERROR with
// err.Error(), one `exception` event whose type is the Go type (`*url.Error`, `*errors.errorString`)
// and `genkit:state=error`. A returned error result is only in `genkit:output`, the span UNSET.

const goSecret = "e2e-secret-5b7d0c9a"

func genkitGoSpan(tool, excType, message, output string) ptrace.Traces {
	td := ptrace.NewTraces()
	span := td.ResourceSpans().AppendEmpty().ScopeSpans().AppendEmpty().Spans().AppendEmpty()
	span.SetName(tool)
	attributes := span.Attributes()
	attributes.PutStr("genkit:type", "action")
	attributes.PutStr("genkit:metadata:subtype", "tool.v2")
	attributes.PutStr("genkit:name", tool)
	attributes.PutStr("genkit:input", `{"city":"Paris"}`)
	attributes.PutStr("genkit:path", "/{generate,t:util}/{"+tool+",t:action,s:tool.v2}")
	if message == "" {
		attributes.PutStr("genkit:state", "success")
		attributes.PutStr("genkit:output", output)
		return td
	}
	attributes.PutStr("genkit:state", "error")
	attributes.PutBool("genkit:isFailureSource", true)
	span.Status().SetCode(ptrace.StatusCodeError)
	span.Status().SetMessage(message)
	event := span.Events().AppendEmpty()
	event.SetName("exception")
	event.Attributes().PutStr("exception.type", excType)
	event.Attributes().PutStr("exception.message", message)
	return td
}

func TestGenkitForGoOfTheEndToEndSuite(t *testing.T) {
	cases := []struct {
		name, tool, excType, message, output string
		errorType, kind                      string
	}{
		{"503 in the text", "get_weather", "*errors.errorString", "weather API: 503 Service Unavailable", "", "503", "transient"},
		{"429 in the text", "search_news", "*errors.errorString", "news API: 429 Too Many Requests", "", "429", "rate_limit"},
		{"401 with the URL", "get_account", "*errors.errorString", "GET http://127.0.0.1:42221/401/account?api_key=" + goSecret + ": 401 Unauthorized", "", "401", "auth"},
		{"client timeout", "get_stock", "*url.Error", `Get "http://127.0.0.1:42221/slow/stock?api_key=` + goSecret + `": context deadline exceeded (Client.Timeout exceeded while awaiting headers)`, "", "timeout", "timeout"},
		{"refused, wrapped", "get_rates", "*fmt.wrapError", `rates: Get "http://127.0.0.1:33739/rates?api_key=` + goSecret + `": dial tcp 127.0.0.1:33739: connect: connection refused`, "", "ECONNREFUSED", "network"},
		{"returned error result", "lookup_order", "", "", `{"output":{"error":"orders API: 503 Service Unavailable"}}`, "503", "transient"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, err := newToolErrors(createDefaultConfig().(*Config))
			if err != nil {
				t.Fatal(err)
			}
			td := genkitGoSpan(c.tool, c.excType, c.message, c.output)
			if _, err := p.processTraces(context.Background(), td); err != nil {
				t.Fatal(err)
			}
			span := td.ResourceSpans().At(0).ScopeSpans().At(0).Spans().At(0)
			attributes := span.Attributes().AsRaw()
			if attributes["error.type"] != c.errorType || attributes["tool.error_kind"] != c.kind {
				t.Errorf("error.type=%v tool.error_kind=%v, want %s %s", attributes["error.type"], attributes["tool.error_kind"], c.errorType, c.kind)
			}
			if span.Status().Code() != ptrace.StatusCodeError {
				t.Errorf("status %v, want ERROR", span.Status().Code())
			}
			if strings.Contains(span.Status().Message(), goSecret) {
				t.Errorf("status message keeps the key: %q", span.Status().Message())
			}
			for i := 0; i < span.Events().Len(); i++ {
				if message, _ := span.Events().At(i).Attributes().Get("exception.message"); strings.Contains(message.Str(), goSecret) {
					t.Errorf("exception.message keeps the key: %q", message.Str())
				}
			}
			t.Logf("error.type=%v tool.error_kind=%v status %q", attributes["error.type"], attributes["tool.error_kind"], span.Status().Message())
		})
	}
}
