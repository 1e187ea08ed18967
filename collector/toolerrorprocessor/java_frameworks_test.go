package toolerrorprocessor

import (
	"strings"
	"testing"

	"go.opentelemetry.io/collector/pdata/ptrace"
)

// The tool spans of the Spring AI agent the end-to-end suite runs (scripts/java-agent/), as its
// OTLP export recorded them (scripts/java-agent/captures/spring-ai.json: the tool spans only, each
// stack cut to its exceptions' lines and first frames), and what the processor writes on them: what
// the same failure gets in JavaScript. Spring AI writes no error.type: a thrown error ends the
// `execute_tool` span with status ERROR (the exception's message) and one `exception` event whose
// type is Spring AI's ToolExecutionException, the client's exception under `Caused by:`. Two runs:
// with spring.ai.tools.throw-exception-on-error=true (as the suite runs it), and with the default,
// where an unchecked exception's message becomes the tool's result and the span ends OK.

const javaSecret = "e2e-secret-XYZ"

func TestSpringAIOfTheEndToEndSuite(t *testing.T) {
	td := processedCapture(t, "../../scripts/java-agent/captures/spring-ai.json")
	type want struct{ errorType, kind string }
	thrown := map[string]want{
		"get_weather":  {"503", "transient"},        // RestClient: HttpServerErrorException$ServiceUnavailable
		"search_news":  {"429", "rate_limit"},       // RestClient: HttpClientErrorException$TooManyRequests
		"get_account":  {"401", "auth"},             // RestClient: HttpClientErrorException$Unauthorized
		"get_stock":    {"timeout", "timeout"},      // java.net.http: HttpTimeoutException
		"get_rates":    {"ECONNREFUSED", "network"}, // java.net.http: ConnectException, no message
		"get_fx":       {"ECONNREFUSED", "network"}, // RestClient: ResourceAccessException, the key in the URL
		"get_quote":    {"timeout", "timeout"},      // OkHttp: SocketTimeoutException
		"lookup_order": {"503", "transient"},        // returned {"error": "... HTTP 503 ..."}
	}
	// By default only checked exceptions (the timeouts, the refused connection of java.net.http)
	// still end the span in error; the others are results, plain text, which is not read as an error.
	byDefault := map[string]want{
		"get_weather":  {},
		"search_news":  {},
		"get_account":  {},
		"get_stock":    {"timeout", "timeout"},
		"get_rates":    {"ECONNREFUSED", "network"},
		"get_fx":       {},
		"get_quote":    {"timeout", "timeout"},
		"lookup_order": {"503", "transient"},
	}
	for i := 0; i < td.ResourceSpans().Len(); i++ {
		rs := td.ResourceSpans().At(i)
		mode, _ := rs.Resource().Attributes().Get("spring.ai.tools.throw-exception-on-error")
		expect := map[string]map[string]want{"true": thrown, "false": byDefault}[mode.Str()]
		spans := rs.ScopeSpans().At(0).Spans()
		if spans.Len() != len(expect) {
			t.Fatalf("throw-exception-on-error=%s: %d tool spans, want %d", mode.Str(), spans.Len(), len(expect))
		}
		for j := 0; j < spans.Len(); j++ {
			span := spans.At(j)
			tool := strings.TrimPrefix(span.Name(), "execute_tool ")
			w := expect[tool]
			t.Run(mode.Str()+"/"+tool, func(t *testing.T) {
				attributes := span.Attributes().AsRaw()
				got := want{}
				got.errorType, _ = attributes["error.type"].(string)
				got.kind, _ = attributes["tool.error_kind"].(string)
				if got != w {
					t.Errorf("error.type=%q tool.error_kind=%q, want %q %q", got.errorType, got.kind, w.errorType, w.kind)
				}
				if w.kind != "" && span.Status().Code() != ptrace.StatusCodeError {
					t.Errorf("status %v, want ERROR", span.Status().Code())
				}
				if strings.Contains(span.Status().Message(), javaSecret) {
					t.Errorf("status message keeps the key: %q", span.Status().Message())
				}
				for k := 0; k < span.Events().Len(); k++ {
					for _, key := range []string{"exception.message", "exception.stacktrace"} {
						if v, ok := span.Events().At(k).Attributes().Get(key); ok && strings.Contains(v.Str(), javaSecret) {
							t.Errorf("%s keeps the key: %q", key, v.Str())
						}
					}
				}
			})
		}
	}
}
