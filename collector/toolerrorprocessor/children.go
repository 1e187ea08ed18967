package toolerrorprocessor

import (
	"strconv"
	"strings"
	"time"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/ptrace"
)

type spanKey struct {
	trace pcommon.TraceID
	span  pcommon.SpanID
}

// childIndex holds a batch's spans by parent, built once per batch that has an unclassified tool
// span: its memory is bounded by the batch, and nothing is kept between batches.
type childIndex struct {
	byParent map[spanKey][]ptrace.Span
}

func newChildIndex(td ptrace.Traces) *childIndex {
	idx := &childIndex{byParent: map[spanKey][]ptrace.Span{}}
	eachSpan(td, func(span ptrace.Span) {
		if parent := span.ParentSpanID(); !parent.IsEmpty() {
			key := spanKey{span.TraceID(), parent}
			idx.byParent[key] = append(idx.byParent[key], span)
		}
	})
	return idx
}

// eachSpan calls fn with every span of the batch, in the batch's order.
func eachSpan(td ptrace.Traces, fn func(ptrace.Span)) {
	rss := td.ResourceSpans()
	for i := 0; i < rss.Len(); i++ {
		sss := rss.At(i).ScopeSpans()
		for j := 0; j < sss.Len(); j++ {
			spans := sss.At(j).Spans()
			for k := 0; k < spans.Len(); k++ {
				fn(spans.At(k))
			}
		}
	}
}

// httpFailure is what a failed HTTP client span recorded.
type httpFailure struct {
	status     int
	errorType  string
	message    string
	retryAfter bool
}

type httpOutcome struct {
	end     pcommon.Timestamp
	failure *httpFailure
}

// lastHTTPFailure: the last HTTP call made under a tool span (through the spans between, not
// into a nested tool span), when it failed. Only the last call counts: a tool that retried after
// a 503 and then succeeded did not fail because of that 503.
func (idx *childIndex) lastHTTPFailure(tool ptrace.Span, p *toolErrors) *httpFailure {
	var last *httpOutcome
	stack := []ptrace.Span{tool}
	visited := 0
	for len(stack) > 0 && visited < 100_000 {
		span := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		visited++
		for _, child := range idx.byParent[spanKey{span.TraceID(), span.SpanID()}] {
			if p.recognise(child) != nil {
				continue
			}
			if outcome, isHTTP := p.readHTTPOutcome(child); isHTTP {
				if last == nil || outcome.end > last.end {
					last = &outcome
				}
				continue
			}
			stack = append(stack, child)
		}
	}
	if last == nil {
		return nil
	}
	return last.failure
}

// readHTTPOutcome reads an HTTP client span as instrumentation-http, -undici, requests, httpx
// and aiohttp instrumentations write it.
func (p *toolErrors) readHTTPOutcome(span ptrace.Span) (httpOutcome, bool) {
	if span.Kind() != ptrace.SpanKindClient {
		return httpOutcome{}, false
	}
	a := p.r.Attributes
	attributes := span.Attributes()
	isHTTP := false
	for _, key := range a.HTTPRequestMethod {
		if _, ok := attributes.Get(key); ok {
			isHTTP = true
			break
		}
	}
	if !isHTTP {
		return httpOutcome{}, false
	}
	outcome := httpOutcome{end: span.EndTimestamp()}
	status, _ := intAttribute(attributes, a.HTTPResponseStatusCode)
	failedStatus := 0
	if status >= 400 {
		failedStatus = status
	}
	_, hasErrorType := attributes.Get(a.ErrorType)
	if failedStatus == 0 && !hasErrorType && span.Status().Code() != ptrace.StatusCodeError {
		return outcome, true
	}
	exc := p.lastException(span)
	f := &httpFailure{status: failedStatus, errorType: stringAttribute(attributes, a.ErrorType)}
	if !hasErrorType {
		f.errorType = exc.typ
	}
	f.message = exc.message
	if f.message == "" {
		f.message = span.Status().Message()
	}
	if failedStatus != 0 {
		f.retryAfter = hasRetryAfter(attributes, a.RetryAfterMs, a.RetryAfter)
	}
	outcome.failure = f
	return outcome, true
}

// hasRetryAfter: a captured `retry-after-ms` or `retry-after` header (seconds or an HTTP date).
func hasRetryAfter(attributes pcommon.Map, msKeys, keys []string) bool {
	if v := headerValue(attributes, msKeys); v != "" {
		if _, err := strconv.ParseFloat(v, 64); err == nil {
			return true
		}
	}
	v := headerValue(attributes, keys)
	if v == "" {
		return false
	}
	if _, err := strconv.ParseFloat(v, 64); err == nil {
		return true
	}
	_, err := time.Parse(time.RFC1123, v)
	return err == nil
}

// headerValue: a captured header is a string array (one value per occurrence), or a string.
func headerValue(attributes pcommon.Map, keys []string) string {
	for _, key := range keys {
		v, ok := attributes.Get(key)
		if !ok {
			continue
		}
		if v.Type() == pcommon.ValueTypeSlice && v.Slice().Len() > 0 {
			return strings.TrimSpace(v.Slice().At(0).AsString())
		}
		return strings.TrimSpace(v.AsString())
	}
	return ""
}
