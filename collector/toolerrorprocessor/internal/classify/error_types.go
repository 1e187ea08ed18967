package classify

import (
	"container/list"
	"regexp"
	"strings"
	"sync"
	"time"

	"otel-tool-errors/collector/toolerrorprocessor/internal/rules"
)

// ErrorTypes keeps `error.type` low-cardinality: values the classifier knows always pass; any
// other value is sanitised and admitted until the cap, then becomes `_OTHER`. Once the cap is
// full, a new value takes the place of the value seen least recently if that one has been idle
// for the idle time, as the TypeScript package's boundErrorType does.
type ErrorTypes struct {
	mu          sync.Mutex
	max         int
	idle        time.Duration
	maxLength   int
	other       string
	empty       string
	replacement string
	sanitize    *regexp.Regexp
	known       func(string) bool
	seen        map[string]*list.Element
	order       *list.List // of *entry, least recently seen first
	now         func() time.Time
}

type entry struct {
	value string
	at    time.Time
}

// NewErrorTypes makes the bound from the rules' limits.
func NewErrorTypes(r *rules.Rules, known func(string) bool) *ErrorTypes {
	return &ErrorTypes{
		max:         r.ErrorType.MaxDistinct,
		idle:        time.Duration(r.ErrorType.IdleMs) * time.Millisecond,
		maxLength:   r.ErrorType.MaxLength,
		other:       r.Attributes.ErrorTypeOther,
		empty:       r.ErrorType.Sanitize.Empty,
		replacement: r.ErrorType.Sanitize.Replacement,
		sanitize:    regexp.MustCompile(r.ErrorType.Sanitize.Pattern),
		known:       known,
		seen:        map[string]*list.Element{},
		order:       list.New(),
		now:         time.Now,
	}
}

// SetMax changes the cap (the processor's `max_error_types`).
func (e *ErrorTypes) SetMax(max int) {
	e.mu.Lock()
	e.max = max
	e.mu.Unlock()
}

// Sanitize keeps only characters safe in metric labels and search queries, bounded in length.
func (e *ErrorTypes) Sanitize(raw string) string {
	// Go prints a pointer type with a leading `*` (`*url.Error`): the type is the rest.
	cleaned := e.sanitize.ReplaceAllString(strings.TrimLeft(raw, "*"), e.replacement)
	if len(cleaned) > e.maxLength {
		cleaned = cleaned[:e.maxLength]
	}
	if cleaned == "" || cleaned == "_" {
		return e.empty
	}
	return cleaned
}

// Bound returns the value to write for raw.
func (e *ErrorTypes) Bound(raw string) string {
	if len(raw) <= e.maxLength && e.known(raw) {
		return raw
	}
	value := e.Sanitize(raw)
	e.mu.Lock()
	defer e.mu.Unlock()
	now := e.now()
	if el, ok := e.seen[value]; ok {
		el.Value.(*entry).at = now
		e.order.MoveToBack(el)
		return value
	}
	if len(e.seen) >= e.max {
		oldest := e.order.Front()
		if oldest == nil || now.Sub(oldest.Value.(*entry).at) < e.idle {
			return e.other
		}
		delete(e.seen, oldest.Value.(*entry).value)
		e.order.Remove(oldest)
	}
	e.seen[value] = e.order.PushBack(&entry{value, now})
	return value
}

// isKnownErrorType: a status, a fixed value, a built-in class or a listed code or class (bounded sets).
func (c *Classifier) isKnownErrorType(raw string) bool {
	for _, v := range c.r.ErrorType.AlwaysAllowed {
		if v == raw {
			return true
		}
	}
	if c.StatusFromErrorType(raw) != 0 || c.timeout[raw] || c.network[raw] || c.cancel[raw] ||
		raw == c.r.Codes.TimeoutOrNetwork.Code {
		return true
	}
	if _, ok := c.names[raw]; ok {
		return true
	}
	_, ok := c.python[raw]
	return ok
}
