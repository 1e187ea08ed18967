package toolerrorprocessor

import (
	"bytes"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/json"
	"sort"
	"strings"

	"go.opentelemetry.io/collector/pdata/ptrace"
)

// Attempts (experimental), as the npm package numbers them in process: a call of a tool that
// starts after a failed call of the same tool, with the same arguments, in the same trace, is an
// attempt of it. Here only within one batch: the spans of a trace that reach the processor
// together (put it after `groupbytrace`, or in a tier that receives whole traces). Arguments are
// read from the span where the framework recorded them (argumentAttributes, argumentEvents); a
// span without them is never an attempt. They are compared by an HMAC-SHA256 under a random key
// made when the processor starts; neither leaves the processor.

const (
	attrToolCallAttempt        = "tool.call.attempt"
	attrRecoveredErrorType     = "tool.call.recovered_error_type"
	attrRecoveredErrorKind     = "tool.call.recovered_error_kind"
	maxAttemptSpansPerTrace    = 1000
	maxCanonicalArgumentsBytes = 64 * 1024
)

// argumentAttributes: where frameworks record a tool call's arguments on its span, first found
// wins: the GenAI conventions (opt-in; Microsoft Agent Framework with sensitive data on), OpenInference
// (LangGraph, CrewAI, ... through openinference-instrumentation-*), OpenLLMetry, Google ADK.
var argumentAttributes = []string{
	"gen_ai.tool.call.arguments",
	"input.value",
	"traceloop.entity.input",
	"gcp.vertex.agent.tool_call_args",
}

// argumentEvents: events that carry the arguments instead (Strands Agents' `gen_ai.tool.message`,
// whose `content` is the tool's input).
var argumentEvents = map[string]string{"gen_ai.tool.message": "content"}

type attemptKeyer struct{ key []byte }

func newAttemptKeyer() *attemptKeyer {
	key := make([]byte, 32)
	_, _ = rand.Read(key)
	return &attemptKeyer{key: key}
}

// digest of the tool name and the canonical arguments; "" when the span records no arguments.
func (k *attemptKeyer) digest(span ptrace.Span, toolName string) string {
	args, ok := spanArguments(span)
	if !ok {
		return ""
	}
	mac := hmac.New(sha256.New, k.key)
	mac.Write([]byte(toolName))
	mac.Write([]byte{0})
	mac.Write([]byte(canonicalArguments(args)))
	return string(mac.Sum(nil))
}

func spanArguments(span ptrace.Span) (string, bool) {
	attributes := span.Attributes()
	for _, key := range argumentAttributes {
		if v, ok := attributes.Get(key); ok {
			return v.AsString(), true
		}
	}
	events := span.Events()
	for i := 0; i < events.Len(); i++ {
		if key, ok := argumentEvents[events.At(i).Name()]; ok {
			if v, ok := events.At(i).Attributes().Get(key); ok {
				return v.AsString(), true
			}
		}
	}
	return "", false
}

// canonicalArguments: JSON text re-encoded with its object keys in order (Go's encoder sorts map
// keys), so that the same arguments in another key order compare equal; other text as it is.
func canonicalArguments(text string) string {
	trimmed := strings.TrimSpace(text)
	if len(trimmed) > maxCanonicalArgumentsBytes || (!strings.HasPrefix(trimmed, "{") && !strings.HasPrefix(trimmed, "[")) {
		return text
	}
	decoder := json.NewDecoder(strings.NewReader(trimmed))
	decoder.UseNumber()
	var value any
	if decoder.Decode(&value) != nil {
		return text
	}
	var out bytes.Buffer
	encoder := json.NewEncoder(&out)
	encoder.SetEscapeHTML(false)
	if encoder.Encode(value) != nil {
		return text
	}
	return out.String()
}

type attemptSpan struct {
	span    ptrace.Span
	digest  string
	attempt int
	failed  bool
}

// markAttempts numbers the attempts among the tool spans of each trace in the batch, after their
// failures were classified. A trace in which the app already numbered attempts (the npm package:
// `tool.call.attempt` on a span) is left as it is. Costs one sorted copy of the tool spans when
// any failed; digests only in traces with a failure and more than one tool span.
func (p *toolErrors) markAttempts(tools []toolSpan) {
	if len(tools) < 2 {
		return
	}
	anyFailed := false
	for _, t := range tools {
		if t.span.Status().Code() == ptrace.StatusCodeError {
			anyFailed = true
			break
		}
	}
	if !anyFailed {
		return
	}
	sorted := append([]toolSpan(nil), tools...)
	sort.SliceStable(sorted, func(i, j int) bool {
		a, b := sorted[i].span.TraceID(), sorted[j].span.TraceID()
		return bytes.Compare(a[:], b[:]) < 0
	})
	for start := 0; start < len(sorted); {
		end := start + 1
		for end < len(sorted) && sorted[end].span.TraceID() == sorted[start].span.TraceID() {
			end++
		}
		if end-start > 1 {
			p.markTraceAttempts(sorted[start:min(end, start+maxAttemptSpansPerTrace)])
		}
		start = end
	}
}

// markTraceAttempts: the tool spans of one trace.
func (p *toolErrors) markTraceAttempts(spans []toolSpan) {
	failed := false
	for _, t := range spans {
		if _, ok := t.span.Attributes().Get(attrToolCallAttempt); ok {
			return
		}
		failed = failed || t.span.Status().Code() == ptrace.StatusCodeError
	}
	if !failed {
		return
	}
	byDigest := map[string][]*attemptSpan{}
	for _, t := range spans {
		name := stringAttribute(t.span.Attributes(), "gen_ai.tool.name")
		if name == "" {
			name = t.span.Name()
		}
		if digest := p.keyer.digest(t.span, name); digest != "" {
			byDigest[digest] = append(byDigest[digest], &attemptSpan{span: t.span, digest: digest})
		}
	}
	for _, calls := range byDigest {
		if len(calls) > 1 {
			p.numberAttempts(calls)
		}
	}
}

// numberAttempts, for the calls of one digest: in start order, a call whose latest call that ended
// before it started failed is an attempt of that one; a call after a success is a first call again.
func (p *toolErrors) numberAttempts(spans []*attemptSpan) {
	sort.SliceStable(spans, func(i, j int) bool { return spans[i].span.StartTimestamp() < spans[j].span.StartTimestamp() })
	for i, s := range spans {
		s.failed = s.span.Status().Code() == ptrace.StatusCodeError && !p.halted(s.span)
		s.attempt = 1
		var previous *attemptSpan
		for _, earlier := range spans[:i] {
			if earlier.span.EndTimestamp() > s.span.StartTimestamp() {
				continue
			}
			if previous == nil || earlier.span.EndTimestamp() >= previous.span.EndTimestamp() {
				previous = earlier
			}
		}
		if previous == nil || !previous.failed {
			continue
		}
		s.attempt = previous.attempt + 1
		attributes := s.span.Attributes()
		attributes.PutInt(attrToolCallAttempt, int64(s.attempt))
		link := s.span.Links().AppendEmpty()
		link.SetTraceID(previous.span.TraceID())
		link.SetSpanID(previous.span.SpanID())
		link.Attributes().PutInt(attrToolCallAttempt, int64(previous.attempt))
		if !s.failed && !p.halted(s.span) {
			previousAttributes := previous.span.Attributes()
			if v := stringAttribute(previousAttributes, p.r.Attributes.ErrorType); v != "" {
				attributes.PutStr(attrRecoveredErrorType, v)
			}
			if v := stringAttribute(previousAttributes, p.r.Attributes.Kind); v != "" {
				attributes.PutStr(attrRecoveredErrorKind, v)
			}
		}
	}
}
