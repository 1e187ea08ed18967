package toolerrorprocessor

import (
	"context"
	"sort"
	"testing"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/ptrace"
)

type attemptCall struct {
	args       string
	start, end int64
	failed     bool
	traceID    byte
	appAttempt int64
}

// attemptBatch: one batch with a `get_weather` execute_tool span per call; a failed one has the
// exception of an httpx 503, as a Python agent records it.
func attemptBatch(t *testing.T, calls []attemptCall, scopeName string) []ptrace.Span {
	t.Helper()
	p, err := newToolErrors(createDefaultConfig().(*Config))
	if err != nil {
		t.Fatal(err)
	}
	td := ptrace.NewTraces()
	scope := td.ResourceSpans().AppendEmpty().ScopeSpans().AppendEmpty()
	scope.Scope().SetName(scopeName)
	for i, c := range calls {
		span := scope.Spans().AppendEmpty()
		span.SetName("execute_tool get_weather")
		traceID := c.traceID
		if traceID == 0 {
			traceID = 1
		}
		span.SetTraceID(pcommon.TraceID{traceID})
		span.SetSpanID(pcommon.SpanID{byte(i + 1)})
		span.SetStartTimestamp(pcommon.Timestamp(c.start))
		span.SetEndTimestamp(pcommon.Timestamp(c.end))
		span.Attributes().PutStr("gen_ai.operation.name", "execute_tool")
		span.Attributes().PutStr("gen_ai.tool.name", "get_weather")
		if c.args != "" {
			span.Attributes().PutStr("gen_ai.tool.call.arguments", c.args)
		}
		if c.appAttempt != 0 {
			span.Attributes().PutInt(attrToolCallAttempt, c.appAttempt)
		}
		if c.failed {
			span.Status().SetCode(ptrace.StatusCodeError)
			event := span.Events().AppendEmpty()
			event.SetName("exception")
			event.Attributes().PutStr("exception.type", "httpx.HTTPStatusError")
			event.Attributes().PutStr("exception.message", py503)
		}
	}
	if _, err := p.processTraces(context.Background(), td); err != nil {
		t.Fatal(err)
	}
	spans := make([]ptrace.Span, scope.Spans().Len())
	for i := range spans {
		spans[i] = scope.Spans().At(i)
	}
	return spans
}

func attemptOf(span ptrace.Span) int64 {
	if v, ok := span.Attributes().Get(attrToolCallAttempt); ok {
		return v.Int()
	}
	return 0
}

func TestAttemptAfterAFailureWithTheSameArguments(t *testing.T) {
	spans := attemptBatch(t, []attemptCall{
		{args: `{"city": "Lyon", "units": "metric"}`, start: 10, end: 20, failed: true},
		{args: `{"units":"metric","city":"Lyon"}`, start: 30, end: 40},
	}, "")
	failed, attempt := spans[0], spans[1]
	if got := stringAttribute(failed.Attributes(), "error.type"); got != "503" {
		t.Fatalf("the failed call: error.type=%q, want 503", got)
	}
	if attemptOf(failed) != 0 || failed.Links().Len() != 0 {
		t.Errorf("the failed call is a first call: attempt %d, %d links", attemptOf(failed), failed.Links().Len())
	}
	if attemptOf(attempt) != 2 {
		t.Errorf("tool.call.attempt=%d, want 2", attemptOf(attempt))
	}
	if attempt.Links().Len() != 1 || attempt.Links().At(0).SpanID() != failed.SpanID() {
		t.Fatalf("want one link to the failed call, got %d", attempt.Links().Len())
	}
	if v, _ := attempt.Links().At(0).Attributes().Get(attrToolCallAttempt); v.Int() != 1 {
		t.Errorf("the link's tool.call.attempt=%v, want 1", v.AsRaw())
	}
	if got := stringAttribute(attempt.Attributes(), attrRecoveredErrorType); got != "503" {
		t.Errorf("recovered_error_type=%q, want 503", got)
	}
	if got := stringAttribute(attempt.Attributes(), attrRecoveredErrorKind); got != "transient" {
		t.Errorf("recovered_error_kind=%q, want transient", got)
	}
	if _, ok := attempt.Attributes().Get("error.type"); ok {
		t.Error("the successful attempt has error.type")
	}
}

func TestAttemptChainAndFirstCallAgainAfterASuccess(t *testing.T) {
	args := `{"city":"Lyon"}`
	spans := attemptBatch(t, []attemptCall{
		{args: args, start: 10, end: 20, failed: true},
		{args: args, start: 30, end: 40, failed: true},
		{args: args, start: 50, end: 60},
		{args: args, start: 70, end: 80},
	}, "")
	got := []int64{attemptOf(spans[0]), attemptOf(spans[1]), attemptOf(spans[2]), attemptOf(spans[3])}
	if got[0] != 0 || got[1] != 2 || got[2] != 3 || got[3] != 0 {
		t.Errorf("attempts %v, want [0 2 3 0]", got)
	}
	if spans[2].Links().At(0).SpanID() != spans[1].SpanID() {
		t.Error("the third attempt links to the second")
	}
	if _, ok := spans[1].Attributes().Get(attrRecoveredErrorType); ok {
		t.Error("a failed attempt recovers nothing")
	}
}

func TestNoAttempts(t *testing.T) {
	cases := map[string][]attemptCall{
		"other arguments": {
			{args: `{"city":"Lyon"}`, start: 10, end: 20, failed: true},
			{args: `{"city":"Paris"}`, start: 30, end: 40},
		},
		"parallel calls": {
			{args: `{"city":"Lyon"}`, start: 10, end: 20, failed: true},
			{args: `{"city":"Lyon"}`, start: 11, end: 25},
		},
		"another trace": {
			{args: `{"city":"Lyon"}`, start: 10, end: 20, failed: true},
			{args: `{"city":"Lyon"}`, start: 30, end: 40, traceID: 2},
		},
		"no arguments recorded": {
			{start: 10, end: 20, failed: true},
			{start: 30, end: 40},
		},
	}
	for name, calls := range cases {
		t.Run(name, func(t *testing.T) {
			for i, span := range attemptBatch(t, calls, "") {
				if attemptOf(span) != 0 || span.Links().Len() != 0 {
					t.Errorf("call %d: attempt %d, %d links; want none", i, attemptOf(span), span.Links().Len())
				}
			}
		})
	}
}

func TestAttemptsTheAppNumberedLeftAsTheyAre(t *testing.T) {
	args := `{"city":"Lyon"}`
	calls := []attemptCall{
		{args: args, start: 10, end: 20, failed: true},
		{args: args, start: 30, end: 40},
		{args: args, start: 50, end: 60, failed: true},
		{args: args, start: 70, end: 80, appAttempt: 2},
	}
	spans := attemptBatch(t, calls, "")
	if attemptOf(spans[1]) != 0 || spans[3].Links().Len() != 0 || attemptOf(spans[3]) != 2 {
		t.Error("a trace the package numbered in the app is numbered again")
	}
}

func TestCanonicalArguments(t *testing.T) {
	if canonicalArguments(`{"b": 1, "a": [1, {"d": 2, "c": 3}]}`) != canonicalArguments(`{"a":[1,{"c":3,"d":2}],"b":1}`) {
		t.Error("the key order changes the canonical form")
	}
	if canonicalArguments(`{"a": 1}`) == canonicalArguments(`{"a": 2}`) {
		t.Error("other values give the same canonical form")
	}
	if canonicalArguments("not json") != "not json" {
		t.Error("text that is no JSON changed")
	}
}

// A real Strands Agents run (scripts/python-agents/strands_retry_agent.py, its OTLP export as
// received, kept beside it rather than in this package, which npm ships): get_weather for Lyon fails on a 503, again for Lyon succeeds, then for Paris fails,
// then two calls for Nice run concurrently (one fails, one succeeds).
// Strands records the arguments in the tool span's `gen_ai.tool.message` event and numbers no
// attempts: the processor does.
func TestAttemptsOfAStrandsAgentRun(t *testing.T) {
	td := processedCapture(t, "../../scripts/python-agents/captures/strands-retry.json")
	var tools []ptrace.Span
	eachSpan(td, func(span ptrace.Span) {
		if span.Name() == "execute_tool get_weather" {
			tools = append(tools, span)
		}
	})
	sort.Slice(tools, func(i, j int) bool { return tools[i].StartTimestamp() < tools[j].StartTimestamp() })
	if len(tools) != 5 {
		t.Fatalf("want 5 get_weather spans, got %d", len(tools))
	}
	lyon, retry, paris, nice := tools[0], tools[1], tools[2], tools[3:]
	for _, failed := range []ptrace.Span{lyon, paris} {
		if got := stringAttribute(failed.Attributes(), "error.type"); got != "503" || failed.Status().Code() != ptrace.StatusCodeError {
			t.Errorf("a failed call: error.type=%q status %v, want 503 ERROR", got, failed.Status().Code())
		}
	}
	if attemptOf(lyon) != 0 || lyon.Links().Len() != 0 {
		t.Error("the first call is no attempt")
	}
	if attemptOf(retry) != 2 || retry.Links().Len() != 1 || retry.Links().At(0).SpanID() != lyon.SpanID() {
		t.Errorf("the retry: attempt %d, %d links; want 2, linked to the failed call", attemptOf(retry), retry.Links().Len())
	}
	if retry.Status().Code() == ptrace.StatusCodeError {
		t.Error("the retry succeeded")
	}
	if stringAttribute(retry.Attributes(), attrRecoveredErrorType) != "503" || stringAttribute(retry.Attributes(), attrRecoveredErrorKind) != "transient" {
		t.Errorf("the retry recovered %q %q, want 503 transient",
			stringAttribute(retry.Attributes(), attrRecoveredErrorType), stringAttribute(retry.Attributes(), attrRecoveredErrorKind))
	}
	if attemptOf(paris) != 0 || paris.Links().Len() != 0 {
		t.Error("the call with other arguments is no attempt")
	}
	if nice[0].Status().Code() == nice[1].Status().Code() || nice[1].StartTimestamp() > nice[0].EndTimestamp() {
		t.Fatal("the Nice calls: want one failed and one succeeded, overlapping")
	}
	for _, parallel := range nice {
		if attemptOf(parallel) != 0 || parallel.Links().Len() != 0 || stringAttribute(parallel.Attributes(), attrRecoveredErrorKind) != "" {
			t.Error("parallel calls with the same arguments are no attempts of each other")
		}
	}
}
