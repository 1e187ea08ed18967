package toolerrorprocessor

import (
	"context"
	"strings"
	"testing"
	"unicode/utf8"

	"go.opentelemetry.io/collector/pdata/ptrace"
)

// What a failed Python tool leaves on its span, with secrets where tools put them: in the URL the
// client names (a query key, userinfo), in a header it echoes, in a quoted source line.
const (
	pyMessage = "503 Server Error: Service Unavailable for url: https://api.example.com/v1/weather?city=Lyon&api_key=sk-proj-Qm7Tb2Xv9Lp4Wn8Rz6Yc"
	pyStack   = "Traceback (most recent call last):\n" +
		"  File \"/app/tools.py\", line 12, in get_weather\n" +
		"    response = requests.get(url, headers={\"Authorization\": \"Bearer ghp_Zk2Vb7Nq9Xw4Lm8Rt6Yp3Cd1Fg5Hj0Ks2Aq\"})\n" +
		"  File \"/venv/lib/python3.11/site-packages/requests/models.py\", line 1021, in raise_for_status\n" +
		"    raise HTTPError(http_error_msg, response=self)\n" +
		"requests.exceptions.HTTPError: " + pyMessage + "\n"
	// OpenInference's status: LangChain's `repr(error)` and the whole traceback (`_get_stacktrace`).
	openInferenceStatus = "HTTPError('" + pyMessage + "')" + pyStack
)

var pySecrets = []string{"sk-proj-Qm7Tb2Xv9Lp4Wn8Rz6Yc", "ghp_Zk2Vb7Nq9Xw4Lm8Rt6Yp3Cd1Fg5Hj0Ks2Aq", "api_key="}

func pythonToolSpan(spans ptrace.SpanSlice, name string) ptrace.Span {
	span := spans.AppendEmpty()
	span.SetName(name)
	span.SetTraceID([16]byte{7})
	span.SetSpanID([8]byte{byte(spans.Len())})
	span.Attributes().PutStr("openinference.span.kind", "TOOL")
	span.Status().SetCode(ptrace.StatusCodeError)
	span.Status().SetMessage(openInferenceStatus)
	event := span.Events().AppendEmpty()
	event.SetName("exception")
	event.Attributes().PutStr("exception.type", "requests.exceptions.HTTPError")
	event.Attributes().PutStr("exception.message", pyMessage)
	event.Attributes().PutStr("exception.stacktrace", pyStack)
	event.Attributes().PutBool("exception.escaped", false)
	return span
}

func process(t *testing.T, td ptrace.Traces) {
	t.Helper()
	if _, err := newTestProcessor(t).processTraces(context.Background(), td); err != nil {
		t.Fatal(err)
	}
}

func exceptionText(span ptrace.Span, key string) string {
	v, _ := span.Events().At(0).Attributes().Get(key)
	return v.Str()
}

func expectNoSecret(t *testing.T, where, text string) {
	t.Helper()
	for _, secret := range pySecrets {
		if strings.Contains(text, secret) {
			t.Errorf("%s keeps %q: %q", where, secret, text)
		}
	}
}

func TestAClassifiedPythonToolSpanLeavesNoSecretInItsEventsOrStatus(t *testing.T) {
	td := ptrace.NewTraces()
	span := pythonToolSpan(td.ResourceSpans().AppendEmpty().ScopeSpans().AppendEmpty().Spans(), "get_weather")
	process(t, td)

	if got, _ := span.Attributes().Get("tool.error_kind"); got.Str() != "transient" {
		t.Errorf("tool.error_kind = %q, want transient (the 503 in the message)", got.Str())
	}
	status := span.Status().Message()
	expectNoSecret(t, "the status message", status)
	if strings.Contains(status, "\n") || strings.Contains(status, "File \"") || utf8.RuneCountInString(status) > 256 {
		t.Errorf("the status message is not one short line: %q", status)
	}
	message, stack := exceptionText(span, "exception.message"), exceptionText(span, "exception.stacktrace")
	expectNoSecret(t, "exception.message", message)
	expectNoSecret(t, "exception.stacktrace", stack)
	if !strings.HasPrefix(message, "503 Server Error: Service Unavailable for url: https://api.example.com/v1/weather") {
		t.Errorf("exception.message lost more than its secrets: %q", message)
	}
	// The traceback keeps its lines: only secrets go.
	for _, kept := range []string{"Traceback (most recent call last):\n", "  File \"/app/tools.py\", line 12, in get_weather\n",
		"\"Authorization\": \"[REDACTED]", "raise HTTPError(http_error_msg, response=self)\n"} {
		if !strings.Contains(stack, kept) {
			t.Errorf("exception.stacktrace lost %q: %q", kept, stack)
		}
	}
	if got := exceptionText(span, "exception.type"); got != "requests.exceptions.HTTPError" {
		t.Errorf("exception.type = %q, changed", got)
	}
}

func TestATracebackStatusIsScrubbedAndCutOnSpansLeftUnclassified(t *testing.T) {
	td := ptrace.NewTraces()
	spans := td.ResourceSpans().AppendEmpty().ScopeSpans().AppendEmpty().Spans()
	halted := pythonToolSpan(spans, "approve_payment")
	halted.Attributes().PutStr("tool.call.outcome", "paused")
	paused := pythonToolSpan(spans, "ask_human")
	paused.Status().SetMessage("GraphInterrupt('" + pyMessage + "')" + pyStack)
	paused.Events().At(0).Attributes().PutStr("exception.type", "GraphInterrupt")
	process(t, td)

	for _, span := range []ptrace.Span{halted, paused} {
		if _, ok := span.Attributes().Get("tool.error_kind"); ok {
			t.Errorf("%s: a pause was classified", span.Name())
		}
		status := span.Status().Message()
		expectNoSecret(t, span.Name()+"'s status message", status)
		if status == "" || strings.Contains(status, "\n") || utf8.RuneCountInString(status) > 256 {
			t.Errorf("%s: the status message is not one short line: %q", span.Name(), status)
		}
		expectNoSecret(t, span.Name()+"'s exception.message", exceptionText(span, "exception.message"))
		expectNoSecret(t, span.Name()+"'s exception.stacktrace", exceptionText(span, "exception.stacktrace"))
	}
}

func TestASpanAnotherInstrumentationClassifiedIsRedactedToo(t *testing.T) {
	td := ptrace.NewTraces()
	span := pythonToolSpan(td.ResourceSpans().AppendEmpty().ScopeSpans().AppendEmpty().Spans(), "execute_tool get_weather")
	span.Attributes().PutStr("gen_ai.operation.name", "execute_tool")
	span.Attributes().PutStr("error.type", "HTTPError") // Google ADK writes its own error.type
	process(t, td)

	// The framework's class gives way to the status its exception states; the class stays visible.
	if got, _ := span.Attributes().Get("error.type"); got.Str() != "503" {
		t.Errorf("error.type = %q, want the 503 the exception states", got.Str())
	}
	if got, _ := span.Attributes().Get("tool.error_framework_type"); got.Str() != "HTTPError" {
		t.Errorf("tool.error_framework_type = %q, want the framework's own HTTPError", got.Str())
	}
	expectNoSecret(t, "exception.message", exceptionText(span, "exception.message"))
	expectNoSecret(t, "exception.stacktrace", exceptionText(span, "exception.stacktrace"))
	expectNoSecret(t, "the status message", span.Status().Message())
}

func TestSpansThePackageMarkedAndOtherSpansAreLeftAsTheyAre(t *testing.T) {
	td := ptrace.NewTraces()
	spans := td.ResourceSpans().AppendEmpty().ScopeSpans().AppendEmpty().Spans()
	// The package marked this one in the app, and scrubbed it there: its text is its own.
	marked := pythonToolSpan(spans, "execute_tool get_weather")
	marked.Attributes().PutStr("tool.error_kind", "transient")
	notATool := pythonToolSpan(spans, "GET")
	notATool.Attributes().Remove("openinference.span.kind")
	want := ptrace.NewTraces()
	td.CopyTo(want)
	process(t, td)

	for i := 0; i < spans.Len(); i++ {
		got, expected := spans.At(i), want.ResourceSpans().At(0).ScopeSpans().At(0).Spans().At(i)
		if got.Status().Message() != expected.Status().Message() ||
			exceptionText(got, "exception.message") != exceptionText(expected, "exception.message") ||
			exceptionText(got, "exception.stacktrace") != exceptionText(expected, "exception.stacktrace") {
			t.Errorf("%s was changed", got.Name())
		}
	}
}

func TestExceptionTextIsCutToTheLimitAndAV8StackKeepsItsFrames(t *testing.T) {
	td := ptrace.NewTraces()
	spans := td.ResourceSpans().AppendEmpty().ScopeSpans().AppendEmpty().Spans()
	long := pythonToolSpan(spans, "search")
	long.Events().At(0).Attributes().PutStr("exception.message", strings.Repeat("word ", 5000))
	long.Events().At(0).Attributes().PutStr("exception.stacktrace", strings.Repeat("  File \"a.py\", line 1\n", 1000))
	node := pythonToolSpan(spans, "fetch_page")
	frames := "\n    at fetchPage (/app/tools.js:10:11)\n    at async run (node:internal/x:2:3)"
	node.Events().At(0).Attributes().PutStr("exception.stacktrace",
		"Error: GET https://api.example.com/page?token=Qm7Tb2Xv9Lp4 failed"+frames)
	process(t, td)

	for _, key := range []string{"exception.message", "exception.stacktrace"} {
		text := exceptionText(long, key)
		if n := utf8.RuneCountInString(text); n != 4096 || !strings.HasSuffix(text, "…") {
			t.Errorf("%s: %d characters, want 4096 ending in an ellipsis", key, n)
		}
	}
	stack := exceptionText(node, "exception.stacktrace")
	if stack != "Error: GET https://api.example.com/page failed"+frames {
		t.Errorf("a V8 stack: %q", stack)
	}
}
