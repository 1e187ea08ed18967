package toolerrorprocessor

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.opentelemetry.io/collector/component/componenttest"
	"go.opentelemetry.io/collector/confmap"
	"go.opentelemetry.io/collector/consumer/consumertest"
	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/ptrace"
	"go.opentelemetry.io/collector/processor/processortest"

	"otel-tool-errors/collector/toolerrorprocessor/internal/rules"
)

func failedSpan(spans ptrace.SpanSlice, name string) ptrace.Span {
	span := spans.AppendEmpty()
	span.SetName(name)
	span.SetTraceID(pcommon.TraceID{1})
	span.SetSpanID(pcommon.SpanID{byte(spans.Len())})
	span.Status().SetCode(ptrace.StatusCodeError)
	event := span.Events().AppendEmpty()
	event.SetName("exception")
	event.Attributes().PutStr("exception.type", "ReadTimeout")
	event.Attributes().PutStr("exception.message", "timed out")
	return span
}

func TestTheFactoryBuildsAProcessorThatWritesTheClassification(t *testing.T) {
	factory := NewFactory()
	sink := new(consumertest.TracesSink)
	p, err := factory.CreateTraces(context.Background(), processortest.NewNopSettings(Type), factory.CreateDefaultConfig(), sink)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Start(context.Background(), componenttest.NewNopHost()); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = p.Shutdown(context.Background()) }()
	td := ptrace.NewTraces()
	spans := td.ResourceSpans().AppendEmpty().ScopeSpans().AppendEmpty().Spans()
	failedSpan(spans, "execute_tool lookup").Attributes().PutStr("gen_ai.operation.name", "execute_tool")
	failedSpan(spans, "lookup") // not a tool span
	if err := p.ConsumeTraces(context.Background(), td); err != nil {
		t.Fatal(err)
	}
	got := sink.AllTraces()[0].ResourceSpans().At(0).ScopeSpans().At(0).Spans()
	tool, other := got.At(0).Attributes().AsRaw(), got.At(1).Attributes().AsRaw()
	if tool["tool.error_kind"] != "timeout" || tool["error.type"] != "timeout" || tool["tool.error_retryable"] != true {
		t.Errorf("tool span: %v", tool)
	}
	if _, ok := other["tool.error_kind"]; ok {
		t.Errorf("a span of no tool family was classified: %v", other)
	}
}

func TestConfiguredToolSpans(t *testing.T) {
	cm := confmap.NewFromStringMap(map[string]any{
		"tool_spans": []any{
			map[string]any{"name_prefix": "tool.", "attributes": map[string]any{"app.kind": "tool"}},
			map[string]any{"present": []any{"app.tool_id"}},
		},
		"max_error_types": 10,
	})
	cfg := createDefaultConfig().(*Config)
	if err := cm.Unmarshal(cfg); err != nil {
		t.Fatal(err)
	}
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	p, err := newToolErrors(cfg)
	if err != nil {
		t.Fatal(err)
	}
	td := ptrace.NewTraces()
	spans := td.ResourceSpans().AppendEmpty().ScopeSpans().AppendEmpty().Spans()
	failedSpan(spans, "tool.lookup").Attributes().PutStr("app.kind", "tool")
	failedSpan(spans, "tool.search")                                    // the attribute is missing
	failedSpan(spans, "search").Attributes().PutStr("app.kind", "tool") // the name does not match
	failedSpan(spans, "fetch").Attributes().PutInt("app.tool_id", 7)
	if _, err := p.processTraces(context.Background(), td); err != nil {
		t.Fatal(err)
	}
	want := []bool{true, false, false, true}
	for i, classified := range want {
		_, ok := spans.At(i).Attributes().Get("tool.error_kind")
		if ok != classified {
			t.Errorf("%s: classified %v, want %v", spans.At(i).Name(), ok, classified)
		}
	}
}

func TestConfigValidation(t *testing.T) {
	if err := (&Config{ToolSpans: []rules.SpanMatch{{}}}).Validate(); err == nil ||
		!strings.Contains(err.Error(), "tool_spans[0]") {
		t.Errorf("an empty tool span condition: %v", err)
	}
	if err := (&Config{MaxErrorTypes: -1}).Validate(); err == nil {
		t.Error("a negative max_error_types was accepted")
	}
	if err := createDefaultConfig().(*Config).Validate(); err != nil {
		t.Errorf("the default config: %v", err)
	}
}

func TestErrorTypesAreBounded(t *testing.T) {
	cfg := createDefaultConfig().(*Config)
	cfg.MaxErrorTypes = 2
	p, err := newToolErrors(cfg)
	if err != nil {
		t.Fatal(err)
	}
	bound := p.classifier.ErrorTypes.Bound
	got := []string{bound("FirstAppError"), bound("Second App Error"), bound("ThirdAppError"), bound("FirstAppError"),
		bound("ReadTimeout"), bound("TypeError"), bound("503"), bound("ECONNRESET")}
	want := []string{"FirstAppError", "Second_App_Error", "_OTHER", "FirstAppError", "ReadTimeout", "TypeError", "503", "ECONNRESET"}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("got %v, want %v", got, want)
	}
}

func TestAnHTTPChildInAnotherResourceOfTheBatchCounts(t *testing.T) {
	p := newTestProcessor(t)
	td := ptrace.NewTraces()
	tool := failedSpan(td.ResourceSpans().AppendEmpty().ScopeSpans().AppendEmpty().Spans(), "execute_tool search")
	tool.Events().RemoveIf(func(ptrace.SpanEvent) bool { return true })
	tool.Status().SetMessage("search failed")
	http := td.ResourceSpans().AppendEmpty().ScopeSpans().AppendEmpty().Spans().AppendEmpty()
	http.SetTraceID(tool.TraceID())
	http.SetSpanID(pcommon.SpanID{9})
	http.SetParentSpanID(tool.SpanID())
	http.SetKind(ptrace.SpanKindClient)
	http.Attributes().PutStr("http.request.method", "GET")
	http.Attributes().PutInt("http.response.status_code", 401)
	if _, err := p.processTraces(context.Background(), td); err != nil {
		t.Fatal(err)
	}
	got := tool.Attributes().AsRaw()
	if got["error.type"] != "401" || got["tool.error_kind"] != "auth" {
		t.Errorf("got %v", got)
	}
}

// The literal pre-filter never changes an answer: over the secret corpus' inputs and the
// conformance corpus' texts, every pattern matches exactly where its regular expression does.
func TestThePreFilterNeverChangesAnAnswer(t *testing.T) {
	p := newTestProcessor(t)
	var texts []string
	data, err := os.ReadFile(filepath.Join("..", "..", "test", "fixtures", "secretlint-preset-inputs.json"))
	if err != nil {
		t.Fatal(err)
	}
	var fixture struct{ Cases []struct{ Input string } }
	if err := json.Unmarshal(data, &fixture); err != nil {
		t.Fatal(err)
	}
	for _, c := range fixture.Cases {
		texts = append(texts, c.Input)
		texts = append(texts, strings.Split(c.Input, "\n")...)
	}
	c := loadCorpus(t)
	for _, e := range c.Errors {
		texts = append(texts, e.Error.Message, e.Error.Name)
	}
	patterns := append([]rules.Pattern{}, p.r.Redaction.Patterns...)
	patterns = append(patterns, p.r.Redaction.MayHoldSecretAnyCase, p.r.Redaction.MayHoldSecretExactCase,
		p.r.Messages.MCPCode, p.r.Messages.NodeCode, p.r.Messages.RateLimitText, p.r.Messages.QuotaText,
		p.r.Messages.RetryDelayText, p.r.HTTP.QuotaCodes, p.r.HTTP.GoogleRetryDelay, p.r.Codes.ThrottlingNames, p.r.Results.Hint)
	patterns = append(patterns, p.r.Messages.HTTPStatuses...)
	for _, f := range p.r.Messages.Families {
		patterns = append(patterns, f.Pattern)
	}
	for _, f := range p.r.Classes.NameParts {
		patterns = append(patterns, f.Pattern)
	}
	for _, s := range p.r.Python.StatusMessages {
		patterns = append(patterns, rules.Pattern{Pattern: s})
	}
	filtered := 0
	for _, pattern := range patterns {
		m, err := pattern.CompileMatcher()
		if err != nil {
			t.Fatal(err)
		}
		for _, text := range texts {
			if m.MatchString(text) != m.Regexp.MatchString(text) {
				t.Errorf("/%s/ on %q: the pre-filter changed the answer", pattern.Pattern, text)
			}
			if !m.MayMatch(text) {
				filtered++
			}
		}
	}
	if filtered == 0 {
		t.Error("the pre-filter skipped nothing")
	}

	// The scrubber's one scan for all its patterns answers as each pattern's own pre-filter does.
	var redaction []*rules.Matcher
	for _, pattern := range p.r.Redaction.Patterns {
		m, err := pattern.CompileMatcher()
		if err != nil {
			t.Fatal(err)
		}
		redaction = append(redaction, m)
	}
	set, err := rules.NewMatcherSet(redaction)
	if err != nil {
		t.Fatal(err)
	}
	for _, text := range append(texts, requestsStack, pyStack, openInferenceStatus) {
		may := set.MayMatch(text)
		for i, m := range redaction {
			if (may&(1<<uint(i)) != 0) != m.MayMatch(text) {
				t.Errorf("pattern %d on %q: the set's pre-filter says %v", i, text, may&(1<<uint(i)) != 0)
			}
		}
	}
}
