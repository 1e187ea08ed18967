package toolerrorprocessor

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/ptrace"

	"otel-tool-errors/collector/toolerrorprocessor/internal/classify"
	"otel-tool-errors/collector/toolerrorprocessor/internal/redact"
	"otel-tool-errors/collector/toolerrorprocessor/internal/rules"
)

type toolErrors struct {
	r          *rules.Rules
	recogniser *recogniser
	classifier *classify.Classifier
	scrubber   *redact.Scrubber
	keyer      *attemptKeyer
}

func newToolErrors(cfg *Config) (*toolErrors, error) {
	r, err := rules.Load()
	if err != nil {
		return nil, err
	}
	c, err := classify.New(r)
	if err != nil {
		return nil, err
	}
	s, err := redact.New(r)
	if err != nil {
		return nil, err
	}
	if cfg.MaxErrorTypes > 0 {
		c.ErrorTypes.SetMax(cfg.MaxErrorTypes)
	}
	families := append([]rules.SpanFamily(nil), r.SpanFamilies...)
	if len(cfg.ToolSpans) > 0 {
		families = append(families, rules.SpanFamily{Framework: "configured", Recognise: cfg.ToolSpans})
	}
	recogniser := newRecogniser(families)
	if len(recogniser.keys) > maxKeys {
		return nil, fmt.Errorf("tool_spans: at most %d distinct attribute keys in all, got %d", maxKeys, len(recogniser.keys))
	}
	return &toolErrors{r: r, recogniser: recogniser, classifier: c, scrubber: s, keyer: newAttemptKeyer()}, nil
}

type toolSpan struct {
	span   ptrace.Span
	family *rules.SpanFamily
}

// processTraces classifies the failed tool spans of a batch. The HTTP client spans under a tool
// span count only when they are in the same batch: put the processor after `groupbytrace`, or in
// a tier that receives whole traces (the tail-sampling gateway behind a load balancer by trace id).
func (p *toolErrors) processTraces(_ context.Context, td ptrace.Traces) (ptrace.Traces, error) {
	var tools []toolSpan
	eachSpan(td, func(span ptrace.Span) {
		if f := p.recognise(span); f != nil {
			tools = append(tools, toolSpan{span, f})
		}
	})
	if len(tools) == 0 {
		return td, nil
	}
	var children *childIndex
	for _, t := range tools {
		if p.markedByThisPackage(t.span) {
			continue
		}
		marked := false
		if !p.halted(t.span) {
			if children == nil {
				children = newChildIndex(td)
			}
			marked = p.classifySpan(t, children.lastHTTPFailure(t.span, p))
		}
		if !marked {
			p.scrubStatusMessage(t.span)
		}
		p.redactExceptionEvents(t.span)
	}
	p.markAttempts(tools)
	return td, nil
}

// recognise returns the family of a tool span, or nil.
func (p *toolErrors) recognise(span ptrace.Span) *rules.SpanFamily {
	return p.recogniser.family(span)
}

// markedByThisPackage: the span has `tool.error_kind`, which only this package writes (in the app,
// or another collector's tool_errors). It is never overwritten, and its status message and
// exception events were scrubbed where it was marked.
func (p *toolErrors) markedByThisPackage(span ptrace.Span) bool {
	_, ok := span.Attributes().Get(p.r.Attributes.Kind)
	return ok
}

// halted: a pause or refusal recorded in `tool.call.outcome`, no failure to classify.
func (p *toolErrors) halted(span ptrace.Span) bool {
	_, ok := span.Attributes().Get(p.r.Attributes.CallOutcome)
	return ok
}

// scrubStatusMessage: a tool span this processor does not mark keeps its status, but not what its
// message may carry (OpenInference writes the whole traceback there, URLs and all).
func (p *toolErrors) scrubStatusMessage(span ptrace.Span) {
	if message := span.Status().Message(); message != "" {
		span.Status().SetMessage(p.scrubber.Message(message))
	}
}

// redactExceptionEvents scrubs `exception.message` and `exception.stacktrace` of the span's
// `exception` events, as the package does in process: frameworks record the raw error there.
// `exception.type` stays as it is.
func (p *toolErrors) redactExceptionEvents(span ptrace.Span) {
	events := span.Events()
	for i := 0; i < events.Len(); i++ {
		event := events.At(i)
		if event.Name() != "exception" {
			continue
		}
		attributes := event.Attributes()
		if v, ok := attributes.Get(p.r.Attributes.ExceptionMessage); ok && v.Type() == pcommon.ValueTypeStr {
			if redacted := p.scrubber.Text(v.Str()); redacted != v.Str() {
				v.SetStr(redacted)
			}
		}
		if v, ok := attributes.Get(p.r.Attributes.ExceptionStacktrace); ok && v.Type() == pcommon.ValueTypeStr {
			if redacted := p.scrubber.Stack(v.Str()); redacted != v.Str() {
				v.SetStr(redacted)
			}
		}
	}
}

type exception struct {
	found                    bool
	typ, message, stacktrace string
}

func (p *toolErrors) lastException(span ptrace.Span) exception {
	events := span.Events()
	for i := events.Len() - 1; i >= 0; i-- {
		event := events.At(i)
		if event.Name() != "exception" {
			continue
		}
		e := exception{found: true}
		e.typ = stringAttribute(event.Attributes(), p.r.Attributes.ExceptionType)
		e.message = stringAttribute(event.Attributes(), p.r.Attributes.ExceptionMessage)
		e.stacktrace = stringAttribute(event.Attributes(), p.r.Attributes.ExceptionStacktrace)
		return e
	}
	return exception{}
}

func stringAttribute(attributes pcommon.Map, key string) string {
	if v, ok := attributes.Get(key); ok && v.Type() == pcommon.ValueTypeStr {
		return v.Str()
	}
	return ""
}

// intAttribute reads the first of keys holding an integer (or a string of digits).
func intAttribute(attributes pcommon.Map, keys []string) (int, bool) {
	for _, key := range keys {
		v, ok := attributes.Get(key)
		if !ok {
			continue
		}
		switch v.Type() {
		case pcommon.ValueTypeInt:
			return int(v.Int()), true
		case pcommon.ValueTypeDouble:
			return int(v.Double()), true
		case pcommon.ValueTypeStr:
			if n, err := strconv.Atoi(v.Str()); err == nil {
				return n, true
			}
		}
	}
	return 0, false
}

// failure is what the processor writes on a failed tool span.
type failure struct {
	classification classify.Classification
	message        string
	fixedErrorType string
	// frameworkErrorType is the framework's own class-name `error.type` that stronger evidence
	// replaced, where no exception event keeps it.
	frameworkErrorType string
}

// classifySpan marks a failed tool span; false when it did not (no failure, or a pause).
func (p *toolErrors) classifySpan(t toolSpan, httpChild *httpFailure) bool {
	exc := p.lastException(t.span)
	if p.classifier.IsPause(exc.typ) {
		return false
	}
	var f *failure
	if p.isMCPToolCall(t) {
		f = p.readMCPErrorResult(t, exc, httpChild)
	}
	if f == nil {
		f = p.readToolSpanFailure(t, exc, httpChild)
	}
	if f == nil {
		return false
	}
	p.mark(t.span, f)
	return true
}

func (p *toolErrors) isMCPToolCall(t toolSpan) bool {
	return t.family.MCPToolCall != nil || stringAttribute(t.span.Attributes(), "mcp.method.name") == "tools/call"
}

// readMCPErrorResult: an MCP span whose call returned `isError: true`. The conventions fix its
// `error.type` to `tool_error`; the finer answer goes to `tool.error_detail_type`.
func (p *toolErrors) readMCPErrorResult(t toolSpan, exc exception, httpChild *httpFailure) *failure {
	if exc.found {
		return nil
	}
	attributes := t.span.Attributes()
	statusError := t.span.Status().Code() == ptrace.StatusCodeError
	errorType := stringAttribute(attributes, p.r.Attributes.ErrorType)
	_, hasErrorType := attributes.Get(p.r.Attributes.ErrorType)
	_, hasStatus := intAttribute(attributes, p.r.Attributes.HTTPResponseStatusCode)
	flag := false
	if t.family.MCPToolCall != nil && t.family.MCPToolCall.Flag != "" {
		if v, ok := attributes.Get(t.family.MCPToolCall.Flag); ok && v.Type() == pcommon.ValueTypeBool {
			flag = v.Bool()
		}
	}
	if !flag && errorType != p.r.Attributes.ErrorTypeToolError && !(statusError && !hasErrorType && !hasStatus) {
		return nil
	}
	text := ""
	if t.family.MCPToolCall != nil && t.family.MCPToolCall.Text != "" {
		text = stringAttribute(attributes, t.family.MCPToolCall.Text)
	}
	if text == "" && statusError {
		text = t.span.Status().Message()
	}
	returned := p.classifier.FromText(text)
	return &failure{
		classification: p.chooseEvidence(&returned, httpChild),
		fixedErrorType: p.r.Attributes.ErrorTypeToolError,
	}
}

// readToolSpanFailure reads whether a tool span failed and how: status ERROR, an exception event,
// `error.type`, its own HTTP status >= 400, or an error result its framework recorded. A failed
// HTTP call under the span alone is no failure: the tool may have recovered from it.
func (p *toolErrors) readToolSpanFailure(t toolSpan, exc exception, httpChild *httpFailure) *failure {
	attributes := t.span.Attributes()
	existingType := ""
	if !t.family.OwnErrorType {
		existingType = stringAttribute(attributes, p.r.Attributes.ErrorType)
	}
	ownStatus, hasOwnStatus := intAttribute(attributes, p.r.Attributes.HTTPResponseStatusCode)
	statusError := t.span.Status().Code() == ptrace.StatusCodeError
	thrownSignal := statusError || exc.found || existingType != "" || (hasOwnStatus && ownStatus >= 400)
	var returned *classify.Classification
	if !thrownSignal {
		returned = p.readReturnedError(t)
		if returned == nil {
			return nil
		}
	}
	message := ""
	if statusError {
		message = firstLine(t.span.Status().Message())
	}
	if message == "" {
		message = firstLine(exc.message)
	}
	found := returned
	if exc.found || message != "" || hasOwnStatus {
		status := ownStatus
		if !hasOwnStatus {
			status = p.classifier.StatusFromErrorType(exc.typ)
		}
		thrown := p.classifier.Classify(classify.Shape{
			Name: exc.typ, Code: exc.typ, Message: message, Detail: firstLine(exc.message), Status: status,
			// The causes a Java stack names (`Caused by:`), read as the error's own cause chain.
			Causes: p.classifier.CausesInStack(exc.stacktrace),
		})
		found = &thrown
	}
	chosen := p.chooseEvidence(found, httpChild)
	f := &failure{}
	_, hasStatedKind := attributes.Get(p.r.Attributes.Kind)
	if !hasStatedKind && p.frameworkClassGivesWay(existingType, chosen) {
		f.classification = chosen
		if exc.typ != existingType {
			f.frameworkErrorType = existingType
		}
	} else {
		f.classification = p.keepExisting(chosen, existingType, attributes)
	}
	if returned == nil {
		// A returned result is tool output: its text stays out of the status.
		f.message = message
	}
	return f
}

// readReturnedError reads an error result recorded as a JSON attribute, or else in the span's
// output event (Strands Agents records a tool's result only there).
func (p *toolErrors) readReturnedError(t toolSpan) *classify.Classification {
	attributes := t.span.Attributes()
	for _, key := range append([]string{p.r.Attributes.ToolCallResult}, t.family.Result...) {
		if text := stringAttribute(attributes, key); text != "" {
			if found := p.classifyResultText(text); found != nil {
				return found
			}
		}
	}
	return p.readOutputEvents(t)
}

// chooseEvidence: the stronger of the span's own evidence and the failed HTTP child.
func (p *toolErrors) chooseEvidence(own *classify.Classification, httpChild *httpFailure) classify.Classification {
	if httpChild != nil && (own == nil || p.classifier.Stronger("http_child", own.Evidence)) {
		return p.classifyHTTPFailure(httpChild)
	}
	if own == nil {
		return p.classifier.Classify(classify.Shape{Name: p.r.Attributes.ErrorTypeOther})
	}
	return *own
}

func (p *toolErrors) classifyHTTPFailure(h *httpFailure) classify.Classification {
	found := p.classifier.Classify(classify.Shape{
		Name: h.errorType, Code: h.errorType, Message: h.message, Status: h.status, RetryAfter: h.retryAfter,
	})
	found.Evidence = "http_child"
	return found
}

// frameworkClassGivesWay: a class name a framework wrote into `error.type` itself (`HTTPStatusError`,
// `ReadTimeout`) gives way to a status, a timeout or a code that the span's exception, message or
// HTTP child states, so the failure reads as it does in JavaScript (`503`). A value that is itself a
// status, a code, `timeout`, `tool_error`, or a class that names the failure precisely
// (`ToolTimeoutError`) stays.
func (p *toolErrors) frameworkClassGivesWay(existingType string, found classify.Classification) bool {
	a := p.r.Attributes
	if existingType == "" || existingType == found.ErrorType || existingType == a.ErrorTypeToolError ||
		existingType == a.ErrorTypeOther || existingType == "timeout" ||
		p.classifier.StatusFromErrorType(existingType) != 0 || p.classifier.IsListedCode(existingType) ||
		p.classifier.IsNamedClass(existingType) {
		return false
	}
	return p.classifier.StatusFromErrorType(found.ErrorType) != 0 || found.ErrorType == "timeout" ||
		p.classifier.IsListedCode(found.ErrorType)
}

// keepExisting keeps an `error.type` the span already has; its kind comes from that type when
// the type says one (`503`, `ECONNRESET`, `ReadTimeout`).
func (p *toolErrors) keepExisting(found classify.Classification, existingType string, attributes pcommon.Map) classify.Classification {
	if existingType == "" {
		return found
	}
	kind := p.kindStatedBy(existingType)
	if kind == "" {
		kind = found.Kind
		if found.Evidence == "fallback" && existingType == p.r.Attributes.ErrorTypeToolError {
			kind = "tool_error"
		}
	}
	meaning, _ := p.classifier.KindOf(kind)
	found.ErrorType = existingType
	found.Kind = kind
	found.Retryable = meaning.Retryable
	found.Executed = meaning.Executed
	if v, ok := attributes.Get(p.r.Attributes.Retryable); ok && v.Type() == pcommon.ValueTypeBool {
		found.Retryable = v.Bool()
	}
	if v, ok := attributes.Get(p.r.Attributes.Executed); ok && v.Type() == pcommon.ValueTypeBool {
		found.Executed = v.Bool()
	}
	return found
}

func (p *toolErrors) kindStatedBy(errorType string) string {
	if errorType == p.r.Attributes.ErrorTypeToolError || errorType == p.r.Attributes.ErrorTypeOther {
		return ""
	}
	stated := p.classifier.Classify(classify.Shape{
		Name: errorType, Code: errorType, Message: errorType, Status: p.classifier.StatusFromErrorType(errorType),
	})
	if stated.Evidence == "fallback" {
		return ""
	}
	return stated.Kind
}

// mark writes the classification: the same attributes and status the TypeScript package writes.
func (p *toolErrors) mark(span ptrace.Span, f *failure) {
	a := p.r.Attributes
	attributes := span.Attributes()
	c := f.classification
	if f.fixedErrorType != "" {
		attributes.PutStr(a.ErrorType, f.fixedErrorType)
		if c.ErrorType != f.fixedErrorType {
			attributes.PutStr(a.DetailType, c.ErrorType)
		}
	} else {
		attributes.PutStr(a.ErrorType, c.ErrorType)
	}
	if f.frameworkErrorType != "" {
		attributes.PutStr(a.FrameworkType, f.frameworkErrorType)
	}
	attributes.PutStr(a.Kind, c.Kind)
	attributes.PutBool(a.Retryable, c.Retryable)
	attributes.PutBool(a.Executed, c.Executed)
	// The processor's own text (`auth: HTTPStatusError`) holds a kind and a bounded error.type, no
	// data: it is not scrubbed, where "auth: …" would read as a credential.
	message := c.Kind + ": " + c.ErrorType
	if f.message != "" {
		message = p.scrubber.Message(f.message)
	}
	span.Status().SetCode(ptrace.StatusCodeError)
	span.Status().SetMessage(message)
}

// firstLine: frameworks such as OpenInference append the whole stack to the status message.
func firstLine(text string) string {
	if i := strings.IndexByte(text, '\n'); i >= 0 {
		text = text[:i]
	}
	return strings.TrimSpace(text)
}
