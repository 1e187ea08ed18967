package toolerrorprocessor

import (
	"strings"
	"testing"

	"go.opentelemetry.io/collector/pdata/ptrace"
)

// What a failed Java or Go tool leaves on its span: the JVM's stack with the whole cause chain,
// each `Caused by:` quoting the URL the client called (its key in the query, userinfo), and a Go
// stack whose files and functions are named like secrets (`token.go`) without being any.
const (
	javaFrames = "\tat org.springframework.ai.tool.method.MethodToolCallback.call(MethodToolCallback.java:130)\n" +
		"\tat com.example.agent.TokenService.refresh(TokenService.java:42)\n" +
		"\t... 12 more\n"
	javaMessage = `I/O error on GET request for "http://127.0.0.1:1/rates?api_key=s3cr3t-Qm7Tb2Xv9Lp4": null`
	javaStack   = "org.springframework.ai.tool.execution.ToolExecutionException: " + javaMessage + "\n" + javaFrames +
		`Caused by: org.springframework.web.client.ResourceAccessException: I/O error on GET request for "https://agent:hunter2-Wn8Rz6@api.example.com/rates": null` + "\n" + javaFrames +
		"Caused by: java.net.ConnectException\n" + javaFrames +
		"Caused by: java.nio.channels.ClosedChannelException\n" + javaFrames
	goFrames = "goroutine 23 [running]:\n" +
		"main.fetchToken({0xc0001a2000, 0x2a})\n" +
		"\t/app/token.go:42 +0x1d\n" +
		"net/http.(*Client).Do(0xc0001a2000, 0xc0001b4000)\n" +
		"\t/usr/local/go/src/net/http/client.go:590 +0x5e\n" +
		"created by main.main in goroutine 1\n" +
		"\t/app/main.go:17 +0x85\n"
	goMessage = `stock API: Get "http://127.0.0.1:8080/stock?api_key=s3cr3t-Qm7Tb2Xv9Lp4": context deadline exceeded (Client.Timeout exceeded while awaiting headers)`
)

var javaGoSecrets = []string{"s3cr3t-Qm7Tb2Xv9Lp4", "hunter2-Wn8Rz6", "api_key="}

func executeToolSpan(spans ptrace.SpanSlice, tool, typ, message, stack string) ptrace.Span {
	span := spans.AppendEmpty()
	span.SetName("execute_tool " + tool)
	span.SetTraceID([16]byte{9})
	span.SetSpanID([8]byte{byte(spans.Len())})
	span.Attributes().PutStr("gen_ai.operation.name", "execute_tool")
	span.Attributes().PutStr("gen_ai.tool.name", tool)
	span.Status().SetCode(ptrace.StatusCodeError)
	span.Status().SetMessage(message)
	event := span.Events().AppendEmpty()
	event.SetName("exception")
	event.Attributes().PutStr("exception.type", typ)
	event.Attributes().PutStr("exception.message", message)
	event.Attributes().PutStr("exception.stacktrace", stack)
	return span
}

func expectNoJavaGoSecret(t *testing.T, where, text string) {
	t.Helper()
	for _, secret := range javaGoSecrets {
		if strings.Contains(text, secret) {
			t.Errorf("%s keeps %q: %q", where, secret, text)
		}
	}
}

func TestAJavaToolSpanIsClassifiedByItsStacksCausesAndScrubbedFramesKept(t *testing.T) {
	td := ptrace.NewTraces()
	span := executeToolSpan(td.ResourceSpans().AppendEmpty().ScopeSpans().AppendEmpty().Spans(), "get_rates",
		"org.springframework.ai.tool.execution.ToolExecutionException", javaMessage, javaStack)
	process(t, td)

	// The wrapper's text says nothing; the ConnectException among its causes is the refusal.
	if got, _ := span.Attributes().Get("error.type"); got.Str() != "ECONNREFUSED" {
		t.Errorf("error.type = %q, want ECONNREFUSED from the stack's Caused by: java.net.ConnectException", got.Str())
	}
	if got, _ := span.Attributes().Get("tool.error_kind"); got.Str() != "network" {
		t.Errorf("tool.error_kind = %q, want network", got.Str())
	}
	stack := exceptionText(span, "exception.stacktrace")
	expectNoJavaGoSecret(t, "exception.stacktrace", stack)
	expectNoJavaGoSecret(t, "exception.message", exceptionText(span, "exception.message"))
	expectNoJavaGoSecret(t, "the status message", span.Status().Message())
	if strings.Count(stack, javaFrames) != 4 {
		t.Errorf("exception.stacktrace did not keep its frames as they are: %q", stack)
	}
	for _, kept := range []string{
		`Caused by: org.springframework.web.client.ResourceAccessException: I/O error on GET request for "https://[REDACTED]@api.example.com/rates": null` + "\n",
		"Caused by: java.net.ConnectException\n",
	} {
		if !strings.Contains(stack, kept) {
			t.Errorf("exception.stacktrace lost %q: %q", kept, stack)
		}
	}
}

func TestAGoToolSpanKeepsItsGoroutineStackAsItIsWithItsMessageScrubbed(t *testing.T) {
	td := ptrace.NewTraces()
	stack := "panic: " + goMessage + "\n\n" + goFrames
	span := executeToolSpan(td.ResourceSpans().AppendEmpty().ScopeSpans().AppendEmpty().Spans(), "get_stock",
		"*fmt.wrapError", goMessage, stack)
	process(t, td)

	if got, _ := span.Attributes().Get("error.type"); got.Str() != "timeout" {
		t.Errorf("error.type = %q, want timeout", got.Str())
	}
	scrubbed := exceptionText(span, "exception.stacktrace")
	expectNoJavaGoSecret(t, "exception.stacktrace", scrubbed)
	expectNoJavaGoSecret(t, "exception.message", exceptionText(span, "exception.message"))
	expectNoJavaGoSecret(t, "the status message", span.Status().Message())
	want := `panic: stock API: Get "http://127.0.0.1:8080/stock": context deadline exceeded (Client.Timeout exceeded while awaiting headers)` + "\n\n" + goFrames
	if scrubbed != want {
		t.Errorf("exception.stacktrace = %q, want %q", scrubbed, want)
	}
}
