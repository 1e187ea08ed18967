// Package classify answers, from an error's shape (its type, code, message, HTTP status), the
// same `error.type` and `tool.error_kind` as the TypeScript package's classifyToolError, with the
// tables of the rules file, and reads Python's errors too.
package classify

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"otel-tool-errors/collector/toolerrorprocessor/internal/rules"
)

// Shape is what is known of one error: what a span's exception event, status and attributes say.
type Shape struct {
	// Name is the error's class name or `exception.type` (read as a code too).
	Name string
	// Code is the error's code, when it has one apart from its name.
	Code    string
	Message string
	// Detail is the exception's own message (`exception.message`), when Message is a status
	// description around it: Python clients write the response's status there.
	Detail string
	// Status is the HTTP status, 0 when there is none.
	Status int
	// RetryAfter says a Retry-After the response carried could be read.
	RetryAfter bool
	// HeadersSeen says the response's headers were kept (an error serialised with its headers):
	// a 429 whose kept headers hold no rate-limit header is a quota. Spans keep only the headers
	// an instrumentation was told to capture, so the processor leaves it false for them.
	HeadersSeen bool
	// Causes are the errors under this one, outermost first (the `Caused by:` lines of a Java
	// stack, CausesInStack): each a link of the cause chain, weighed as the error itself is.
	Causes []Shape
}

// Classification is the answer: what the processor writes on the span.
type Classification struct {
	Kind       string
	ErrorType  string
	Retryable  bool
	Executed   bool
	Evidence   string
	HTTPStatus int
}

// Classifier holds the compiled rules. Safe for concurrent use.
type Classifier struct {
	r                 *rules.Rules
	kinds             map[string]rules.Kind
	rank              map[string]int
	timeout           map[string]bool
	network           map[string]bool
	cancel            map[string]bool
	jsonRPC           map[int]string
	names             map[string]string
	python            map[string]string
	pythonPauses      map[string]bool
	uninformative     map[string]bool
	quotaCodes        *rules.Matcher
	throttling        *rules.Matcher
	timeoutWhen       *rules.Matcher
	unknownTool       *rules.Matcher
	mcpCode           *rules.Matcher
	httpStatuses      []*rules.Matcher
	settings          *regexp.Regexp
	urls              *rules.Matcher
	rateLimitText     *rules.Matcher
	quotaText         *rules.Matcher
	nameParts         []family
	errorSuffix       *regexp.Regexp
	stackCause        *rules.Matcher
	nodeCode          *rules.Matcher
	systemErrorText   *rules.Matcher
	families          []family
	pythonStatuses    []*rules.Matcher
	pythonRetryDelay  *rules.Matcher
	googleRetryDelay  *rules.Matcher
	errorTypeStatus   *regexp.Regexp
	ErrorTypes        *ErrorTypes
	resultHint        *rules.Matcher
	maxScannedMessage int
}

type family struct {
	kind    string
	pattern *rules.Matcher
}

func set(values []string) map[string]bool {
	m := make(map[string]bool, len(values))
	for _, v := range values {
		m[v] = true
	}
	return m
}

// New compiles the rules.
func New(r *rules.Rules) (*Classifier, error) {
	c := &Classifier{
		r:                 r,
		kinds:             map[string]rules.Kind{},
		rank:              map[string]int{},
		timeout:           set(r.Codes.Timeout),
		network:           set(r.Codes.Network),
		cancel:            set(r.Codes.Cancel),
		jsonRPC:           map[int]string{},
		names:             r.Classes.Names,
		python:            r.Python.Classes,
		pythonPauses:      set(r.Python.Pauses),
		uninformative:     set(r.Classes.Uninformative),
		errorTypeStatus:   regexp.MustCompile(`^[1-5]\d\d$`),
		maxScannedMessage: r.Messages.MaxScannedLength,
	}
	for _, k := range r.Kinds {
		c.kinds[k.Kind] = k
	}
	for i, e := range r.EvidenceOrder {
		c.rank[e.Evidence] = i
	}
	for _, j := range r.Codes.JSONRPC {
		c.jsonRPC[j.Code] = j.Kind
	}
	compile := func(name string, p rules.Pattern) *rules.Matcher {
		re, err := p.CompileMatcher()
		if err != nil {
			panic(fmt.Sprintf("rules: %s: %v", name, err))
		}
		return re
	}
	var err error
	func() {
		defer func() {
			if p := recover(); p != nil {
				err = fmt.Errorf("%v", p)
			}
		}()
		c.quotaCodes = compile("quotaCodes", r.HTTP.QuotaCodes)
		c.googleRetryDelay = compile("googleRetryDelay", r.HTTP.GoogleRetryDelay)
		c.throttling = compile("throttlingNames", r.Codes.ThrottlingNames)
		c.timeoutWhen = compile("timeoutWhenMessage", r.Codes.TimeoutOrNetwork.TimeoutWhenMessage)
		c.unknownTool = compile("jsonRpcUnknownTool", r.Codes.JSONRPCUnknownTool.Message)
		c.mcpCode = compile("mcpCode", r.Messages.MCPCode)
		c.urls = compile("urls", r.Messages.URLs)
		for _, p := range r.Messages.HTTPStatuses {
			c.httpStatuses = append(c.httpStatuses, compile("httpStatuses", p))
		}
		settings, serr := r.Messages.Settings.Compile()
		if serr != nil {
			panic(fmt.Sprintf("rules: settings: %v", serr))
		}
		c.settings = settings
		c.rateLimitText = compile("rateLimitText", r.Messages.RateLimitText)
		c.quotaText = compile("quotaText", r.Messages.QuotaText)
		for _, p := range r.Classes.NameParts {
			c.nameParts = append(c.nameParts, family{p.Kind, compile("name part "+p.Kind, p.Pattern)})
		}
		c.stackCause = compile("stackCauseLine", r.Classes.StackCause)
		// The suffix alone: what follows a status name must be all of it.
		suffix, serr := rules.Pattern{Pattern: "^(?:" + r.Classes.ErrorSuffix.Pattern + ")"}.Compile()
		if serr != nil {
			panic(fmt.Sprintf("rules: errorSuffix: %v", serr))
		}
		c.errorSuffix = suffix
		c.nodeCode = compile("nodeCode", r.Messages.NodeCode)
		c.systemErrorText = compile("systemErrorText", r.Messages.SystemErrorText)
		c.resultHint = compile("results.hint", r.Results.Hint)
		for _, f := range r.Messages.Families {
			c.families = append(c.families, family{f.Kind, compile("family "+f.Kind, f.Pattern)})
		}
		for _, p := range r.Python.StatusMessages {
			c.pythonStatuses = append(c.pythonStatuses, compile("python status", rules.Pattern{Pattern: p}))
		}
		c.pythonRetryDelay = compile("python retryDelay", rules.Pattern{Pattern: r.Python.RetryDelay})
	}()
	if err != nil {
		return nil, err
	}
	c.ErrorTypes = NewErrorTypes(r, c.isKnownErrorType)
	return c, nil
}

// Make completes a classification from its kind, as makeClassification does.
func (c *Classifier) Make(kind, errorType, evidence string, httpStatus int) Classification {
	meaning := c.kinds[kind]
	return Classification{
		Kind:       kind,
		ErrorType:  c.ErrorTypes.Bound(errorType),
		Retryable:  meaning.Retryable,
		Executed:   meaning.Executed,
		Evidence:   evidence,
		HTTPStatus: httpStatus,
	}
}

// Stronger reports whether evidence a outranks evidence b (EVIDENCE_ORDER).
func (c *Classifier) Stronger(a, b string) bool {
	return c.rank[a] < c.rank[b]
}

// IsPause reports whether an exception of this type is a framework's control flow (a pause).
func (c *Classifier) IsPause(exceptionType string) bool {
	return exceptionType != "" && c.pythonPauses[lastPart(exceptionType)]
}

// KindOf reports the meaning of a kind; ok is false for a value outside the taxonomy.
func (c *Classifier) KindOf(kind string) (rules.Kind, bool) {
	k, ok := c.kinds[kind]
	return k, ok
}

// StatusFromErrorType is the HTTP status an `error.type` such as "503" names, or 0.
func (c *Classifier) StatusFromErrorType(errorType string) int {
	if !c.errorTypeStatus.MatchString(errorType) {
		return 0
	}
	n, _ := strconv.Atoi(errorType)
	return n
}

type finding struct {
	evidence   string
	kind       string
	errorType  string
	httpStatus int
	// byName: read from a class name (`ConnectException`), not from a code the error carries.
	byName bool
}

// Classify classifies one error shape and its causes, as classifyToolError does: each link is
// weighed by the evidence order, the strongest wins (the outermost of equals); message patterns
// are read only when no link has structured evidence, and the class name comes last.
func (c *Classifier) Classify(s Shape) Classification {
	causes := s.Causes
	if max := c.r.Classes.MaxCauseLinks - 1; max >= 0 && len(causes) > max {
		causes = causes[:max]
	}
	// Of equals the outermost wins: a fallback is the error's own class.
	f := c.findInLink(s, false)
	for _, cause := range causes {
		if found := c.findInLink(cause, true); c.outranks(found, f) {
			f = found
		}
	}
	if f.evidence == "fallback" {
		if m := c.classifyLinkMessages(s, causes); m != nil {
			errorType := m.errorType
			if errorType == "" {
				errorType = f.errorType
			}
			return c.Make(m.kind, errorType, "message", m.httpStatus)
		}
		f.kind = "internal"
	}
	if f.byName && f.kind == "network" {
		// A class named for a network failure whose text states the code: the code, as on the HTTP span.
		if m := c.classifyLinkMessages(s, causes); m != nil && m.kind == "network" && c.IsListedCode(m.errorType) {
			f.errorType = m.errorType
		}
	}
	return c.Make(f.kind, f.errorType, f.evidence, f.httpStatus)
}

// findInLink reads one link: a client rule, its status, its code, then its class. Python's status
// messages are read on the error itself: a cause read from a Java stack is no Python error.
func (c *Classifier) findInLink(s Shape, cause bool) *finding {
	f := c.findClient(s)
	if f == nil {
		f = c.findHTTP(s, !cause)
	}
	if f == nil {
		f = c.findCode(s)
	}
	if f == nil {
		f = c.findClass(s)
	}
	return f
}

// outranks: stronger evidence wins; of equals, a code the error carries says more than a class
// named for the failure.
func (c *Classifier) outranks(a, b *finding) bool {
	if c.rank[a.evidence] != c.rank[b.evidence] {
		return c.rank[a.evidence] < c.rank[b.evidence]
	}
	return a.evidence == "code" && b.byName && !a.byName
}

// classifyLinkMessages: message patterns, on the first link whose text says something.
func (c *Classifier) classifyLinkMessages(s Shape, causes []Shape) *messageFinding {
	if m := c.classifyMessage(s.Message); m != nil {
		return m
	}
	for _, cause := range causes {
		if m := c.classifyMessage(cause.Message); m != nil {
			return m
		}
	}
	return nil
}

// CausesInStack reads the causes a Java stack names, outermost first: each `Caused by:` line of
// its head, a class and the first line of its message.
func (c *Classifier) CausesInStack(stack string) []Shape {
	if !strings.Contains(stack, "\nCaused by: ") {
		return nil
	}
	if len(stack) > c.r.Classes.MaxStackRead {
		stack = stack[:c.r.Classes.MaxStackRead]
	}
	var causes []Shape
	for _, line := range strings.Split(stack, "\n") {
		m := c.stackCause.FindStringSubmatch(strings.TrimSuffix(line, "\r"))
		if m == nil {
			continue
		}
		causes = append(causes, Shape{Name: m[1], Message: m[2]})
		if len(causes) == c.r.Classes.MaxStackCause {
			break
		}
	}
	return causes
}

// findClient reads client rules that the shape can carry: none from JavaScript clients (their
// evidence lives in fields a span does not keep); Python clients that write the status into
// their message are read in findHTTP.
func (c *Classifier) findClient(Shape) *finding { return nil }

// kindForStatus is the kind of an HTTP status; a 429 is a rate limit unless quota evidence came
// with it and no rate-limit evidence did.
func (c *Classifier) kindForStatus(status int, rateLimited, quota bool) string {
	for _, run := range c.r.HTTP.Statuses {
		if status >= run.From && status <= run.To {
			if quota && !rateLimited && run.KindWithQuotaEvidence != "" {
				return run.KindWithQuotaEvidence
			}
			return run.Kind
		}
	}
	return ""
}

// findHTTP: the status the shape carries, or (readPython) the one a Python client wrote at the
// head of its message ("Error code: 429 - {...}", "503 Server Error: ...").
func (c *Classifier) findHTTP(s Shape, readPython bool) *finding {
	status, retryAfter := s.Status, s.RetryAfter
	if (status < 100 || status > 599) && readPython {
		status = c.pythonStatus(s.Detail)
		if status == 0 {
			// OpenTelemetry Python's status description is "{ClassName}: {message}".
			status = c.pythonStatus(strings.TrimPrefix(strings.TrimPrefix(s.Message, s.Name+": "), lastPart(s.Name)+": "))
		}
		if status != 0 && c.pythonRetryDelay.MatchString(c.head(s.Message)) {
			retryAfter = true
		}
	}
	if status == 0 {
		return nil
	}
	head := c.head(s.Message)
	quotaCode := c.quotaCodes.MatchString(s.Code) || c.quotaCodes.MatchString(s.Name)
	declared := c.declaresThrottling(s)
	// A quota code is the service's own word: no delay overrides it.
	rateLimited := declared || (!quotaCode && (retryAfter || c.googleRetryDelay.MatchString(head) || c.rateLimitText.MatchString(head)))
	kind := c.kindForStatus(status, rateLimited, quotaCode || c.quotaText.MatchString(head) || s.HeadersSeen)
	if kind == "" {
		return nil
	}
	if !quotaCode && declared {
		kind = "rate_limit"
	}
	return &finding{evidence: "http_status", kind: kind, errorType: strconv.Itoa(status), httpStatus: status}
}

func (c *Classifier) pythonStatus(message string) int {
	if message == "" {
		return 0
	}
	head := message
	if len(head) > 256 {
		head = head[:256]
	}
	for _, re := range c.pythonStatuses {
		if m := re.FindStringSubmatch(head); m != nil {
			n, _ := strconv.Atoi(m[1])
			return n
		}
	}
	return 0
}

func (c *Classifier) declaresThrottling(s Shape) bool {
	for _, name := range []string{s.Code, s.Name} {
		if name != "" && len(name) <= 64 && c.throttling.MatchString(name) {
			return true
		}
	}
	return false
}

func (c *Classifier) kindForCode(code, message string) string {
	switch {
	case c.timeout[code]:
		return "timeout"
	case c.network[code]:
		return "network"
	}
	for _, prefix := range c.r.Codes.NetworkPrefixes {
		if strings.HasPrefix(code, prefix) {
			return "network"
		}
	}
	if code == c.r.Codes.TimeoutOrNetwork.Code {
		if message != "" && c.timeoutWhen.MatchString(message) {
			return "timeout"
		}
		return "network"
	}
	if c.cancel[code] {
		return "canceled"
	}
	return ""
}

func (c *Classifier) findCode(s Shape) *finding {
	if s.Code != "" {
		if kind := c.kindForCode(s.Code, s.Message); kind != "" {
			return codeFinding(kind, s.Code)
		}
	}
	if c.declaresThrottling(s) {
		return &finding{evidence: "code", kind: "rate_limit", errorType: "429"}
	}
	return nil
}

func codeFinding(kind, code string) *finding {
	f := &finding{evidence: "code", kind: kind, errorType: code}
	if kind == "canceled" {
		f.evidence = "cancel"
	}
	if kind == "timeout" {
		f.errorType = "timeout"
	}
	return f
}

// systemErrorCodeIn is the code Node prints for the socket error a text states in the C library's
// words, or "".
func (c *Classifier) systemErrorCodeIn(text string) string {
	if m := c.systemErrorText.FindStringSubmatch(text); m != nil {
		return c.r.Messages.SystemErrorTexts[strings.ToLower(m[1])]
	}
	return ""
}

// KindForName is the kind a class name means by itself: JavaScript's known classes, then the
// status or code its last part names, then Python's classes (matched by the last part of a
// qualified name), then a name ending in Error or Exception by its parts.
func (c *Classifier) KindForName(name string) string {
	if f := c.classFinding(name, ""); f != nil {
		return f.kind
	}
	return ""
}

// classFinding is what a class name says, as findClass reads it; nil when it says nothing.
func (c *Classifier) classFinding(name, message string) *finding {
	if kind, ok := c.names[name]; ok {
		return byName(kind, name)
	}
	if status := c.statusForClassName(name); status != 0 {
		// Text carries no headers: its words decide a 429.
		if kind := c.kindForStatus(status, c.rateLimitText.MatchString(message), c.quotaText.MatchString(message)); kind != "" {
			return &finding{evidence: "class", kind: kind, errorType: strconv.Itoa(status), httpStatus: status, byName: true}
		}
	}
	if code, ok := c.r.Classes.Codes[simpleClassName(name)]; ok {
		// The class's code stands in for a text that names none: `ConnectException: Connection timed out` is a timeout.
		if stated := c.systemErrorCodeIn(message); stated != "" {
			code = stated
		}
		if kind := c.kindForCode(code, message); kind != "" {
			return byName(kind, code)
		}
	}
	if kind, ok := c.python[lastPart(name)]; ok {
		return byName(kind, name)
	}
	if kind := c.kindForNameParts(lastPart(name)); kind != "" {
		return byName(kind, name)
	}
	return nil
}

// byName is a class's finding: a class named for a timeout or a network failure says what a code would.
func byName(kind, errorType string) *finding {
	f := &finding{evidence: "class", kind: kind, errorType: errorType, byName: true}
	switch kind {
	case "canceled":
		f.evidence = "cancel"
	case "timeout", "network":
		f.evidence = "code"
	}
	if kind == "timeout" {
		f.errorType = "timeout"
	}
	return f
}

// statusForClassName is the status a class is named for (`HttpServerErrorException$ServiceUnavailable`,
// `NotFoundException`): its last part, or that part without its Error or Exception suffix, is a
// reason phrase in CamelCase; 0 when it is none.
func (c *Classifier) statusForClassName(name string) int {
	simple := simpleClassName(name)
	if status, ok := c.r.Classes.StatusNames[simple]; ok {
		return status
	}
	for statusName, status := range c.r.Classes.StatusNames {
		if strings.HasPrefix(simple, statusName) && c.errorSuffix.MatchString(simple[len(statusName):]) {
			return status
		}
	}
	return 0
}

// kindForNameParts is the kind a class name's parts say (`PineconeConnectionError`), for a name
// ending in Error or Exception that no table lists.
func (c *Classifier) kindForNameParts(name string) string {
	if len(name) > 128 || !(strings.HasSuffix(name, "Error") || strings.HasSuffix(name, "Exception")) {
		return ""
	}
	for _, p := range c.nameParts {
		if p.pattern.MatchString(name) {
			return p.kind
		}
	}
	return ""
}

func lastPart(name string) string {
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		return name[i+1:]
	}
	return name
}

// simpleClassName is the last part of a qualified class name: after its package (`.`) and its
// outer class (`$`).
func simpleClassName(name string) string {
	return name[max(strings.LastIndexByte(name, '.'), strings.LastIndexByte(name, '$'))+1:]
}

func (c *Classifier) findClass(s Shape) *finding {
	if s.Name != "" {
		if f := c.classFinding(s.Name, s.Message); f != nil {
			return f
		}
		return &finding{evidence: "fallback", errorType: s.Name}
	}
	return &finding{evidence: "fallback", errorType: c.r.Attributes.ErrorTypeOther}
}

type messageFinding struct {
	kind       string
	errorType  string
	httpStatus int
}

func (c *Classifier) head(message string) string {
	if len(message) > c.maxScannedMessage {
		return message[:c.maxScannedMessage]
	}
	return message
}

// kindForJSONRPC is the kind of an MCP / JSON-RPC error code; -32602 with a "tool not found"
// text is an unknown tool.
func (c *Classifier) kindForJSONRPC(code int, message string) string {
	unknown := c.r.Codes.JSONRPCUnknownTool
	if code == unknown.Code && message != "" {
		head := message
		if len(head) > 1024 {
			head = head[:1024]
		}
		if c.unknownTool.MatchString(head) {
			return "unknown_tool"
		}
	}
	return c.jsonRPC[code]
}

func (c *Classifier) familyKind(message string) string {
	for _, f := range c.families {
		if f.pattern.MatchString(message) {
			return f.kind
		}
	}
	return ""
}

// statusInText is the HTTP status a text states in one of the phrasings services use, or as its
// whole text (a reason phrase alone); 0 when it states none.
func (c *Classifier) statusInText(message string) int {
	for _, re := range c.httpStatuses {
		if m := re.FindStringSubmatch(message); m != nil {
			n, _ := strconv.Atoi(m[1])
			return n
		}
	}
	if len(message) > 64 {
		return 0
	}
	phrase := strings.ToLower(strings.TrimSuffix(strings.TrimSpace(message), "."))
	return c.r.Messages.ReasonPhrases[phrase]
}

// ClassifyText classifies a text alone (an error result's text), or nil when it says nothing.
func (c *Classifier) classifyMessage(message string) *messageFinding {
	if message == "" {
		return nil
	}
	message = c.head(message)
	// URLs name where a call went, not what happened: a path or a query reads as nothing.
	if strings.Contains(message, "://") {
		message = c.urls.ReplaceAllString(message, " ")
	}
	if m := c.mcpCode.FindStringSubmatch(message); m != nil {
		code, _ := strconv.Atoi(m[1])
		if kind := c.kindForJSONRPC(code, message); kind != "" {
			if kind == "timeout" {
				return &messageFinding{kind: kind, errorType: "timeout"}
			}
			return &messageFinding{kind: kind, errorType: m[1]}
		}
	}
	if status := c.statusInText(message); status != 0 {
		// Text carries no headers: its words decide a 429.
		if kind := c.kindForStatus(status, c.rateLimitText.MatchString(message), c.quotaText.MatchString(message)); kind != "" {
			return &messageFinding{kind: kind, errorType: strconv.Itoa(status), httpStatus: status}
		}
	}
	if m := c.nodeCode.FindStringSubmatch(message); m != nil {
		if kind := c.kindForCode(m[1], message); kind != "" {
			if kind == "timeout" {
				return &messageFinding{kind: kind, errorType: "timeout"}
			}
			return &messageFinding{kind: kind, errorType: m[1]}
		}
	}
	// The C library's words for a socket error read as the code Node prints for it.
	if code := c.systemErrorCodeIn(message); code != "" {
		if kind := c.kindForCode(code, message); kind == "timeout" {
			return &messageFinding{kind: kind, errorType: "timeout"}
		} else if kind != "" {
			return &messageFinding{kind: kind, errorType: code}
		}
	}
	if kind := c.familyKind(c.settings.ReplaceAllString(message, " ")); kind != "" {
		if kind == "timeout" {
			return &messageFinding{kind: kind, errorType: "timeout"}
		}
		return &messageFinding{kind: kind}
	}
	return nil
}

// FromText classifies a returned error described only by text: `tool_error` unless the text says more.
func (c *Classifier) FromText(text string) Classification {
	m := c.classifyMessage(text)
	if m == nil {
		return c.Make("tool_error", c.r.Attributes.ErrorTypeToolError, "result", 0)
	}
	errorType := m.errorType
	if errorType == "" {
		errorType = c.r.Attributes.ErrorTypeToolError
	}
	return c.Make(m.kind, errorType, "message", m.httpStatus)
}

// IsListedCode reports whether a code is one the rules list by name (a timeout, network or cancel code).
func (c *Classifier) IsListedCode(code string) bool {
	return c.timeout[code] || c.network[code] || c.cancel[code] || code == c.r.Codes.TimeoutOrNetwork.Code
}

// IsNamedClass reports whether a class is one JavaScript's table names for its failure (`ToolTimeoutError`).
func (c *Classifier) IsNamedClass(name string) bool {
	_, ok := c.names[name]
	return ok
}

// IsStructured reports whether evidence was read from the error itself (ranks above http_child).
func (c *Classifier) IsStructured(evidence string) bool {
	return c.rank[evidence] < c.rank["http_child"]
}

// MayBeErrorResult reports whether a recorded result is worth parsing as an error result.
func (c *Classifier) MayBeErrorResult(text string) bool {
	return len(text) <= c.r.Results.MaxLength && c.resultHint.MatchString(text)
}
