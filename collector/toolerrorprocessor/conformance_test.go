package toolerrorprocessor

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/ptrace"

	"otel-tool-errors/collector/toolerrorprocessor/internal/classify"
)

// The shared conformance corpus, rules/conformance.json: the TypeScript package runs the same
// cases (test/rules/conformance.test.ts).

type spanCase struct {
	Name       string         `json:"name"`
	Kind       string         `json:"kind"`
	Attributes map[string]any `json:"attributes"`
	Status     *struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	} `json:"status"`
	Events []struct {
		Name       string            `json:"name"`
		Attributes map[string]string `json:"attributes"`
	} `json:"events"`
	Children []spanCase `json:"children"`
}

// errorCase is an error's shape, with the error under it (`cause`) when it has one.
type errorCase struct {
	Name    string            `json:"name"`
	Code    string            `json:"code"`
	Message string            `json:"message"`
	Status  int               `json:"status"`
	Headers map[string]string `json:"headers"`
	Cause   *errorCase        `json:"cause"`
}

type corpus struct {
	Errors []struct {
		Name   string    `json:"name"`
		Error  errorCase `json:"error"`
		Expect struct {
			ErrorType string `json:"errorType"`
			Kind      string `json:"kind"`
			Retryable bool   `json:"retryable"`
			Executed  bool   `json:"executed"`
		} `json:"expect"`
	} `json:"errors"`
	Spans []struct {
		Name   string   `json:"name"`
		Span   spanCase `json:"span"`
		Expect struct {
			Attributes map[string]any `json:"attributes"`
			Absent     []string       `json:"absent"`
			Status     *struct {
				Code    string  `json:"code"`
				Message *string `json:"message"`
			} `json:"status"`
			Events []struct {
				Name       string            `json:"name"`
				Attributes map[string]string `json:"attributes"`
			} `json:"events"`
		} `json:"expect"`
	} `json:"spans"`
	Phrasings struct {
		Statuses  []int             `json:"statuses"`
		Reasons   map[string]string `json:"reasons"`
		Templates []string          `json:"templates"`
		Noise     []string          `json:"noise"`
	} `json:"phrasings"`
}

func loadCorpus(t testing.TB) corpus {
	data, err := os.ReadFile(filepath.Join("..", "..", "rules", "conformance.json"))
	if err != nil {
		t.Fatal(err)
	}
	var c corpus
	if err := json.Unmarshal(data, &c); err != nil {
		t.Fatal(err)
	}
	return c
}

func TestConformanceErrors(t *testing.T) {
	p := newTestProcessor(t)
	for _, c := range loadCorpus(t).Errors {
		t.Run(c.Name, func(t *testing.T) {
			e := c.Error
			_, hasRetryAfter := e.Headers["retry-after"]
			var causes []classify.Shape
			for cause := e.Cause; cause != nil; cause = cause.Cause {
				causes = append(causes, classify.Shape{Name: cause.Name, Code: cause.Code, Message: cause.Message, Status: cause.Status})
			}
			got := p.classifier.Classify(classify.Shape{
				Name: e.Name, Code: e.Code, Message: e.Message, Status: e.Status, RetryAfter: hasRetryAfter,
				HeadersSeen: len(e.Headers) > 0, Causes: causes,
			})
			want := c.Expect
			if got.ErrorType != want.ErrorType || got.Kind != want.Kind || got.Retryable != want.Retryable ||
				got.Executed != want.Executed {
				t.Errorf("got %s/%s retryable=%v executed=%v (evidence %s), want %s/%s retryable=%v executed=%v",
					got.ErrorType, got.Kind, got.Retryable, got.Executed, got.Evidence,
					want.ErrorType, want.Kind, want.Retryable, want.Executed)
			}
		})
	}
}

// TestConformancePhrasings: every template with every status, alone and with noise after it, reads
// that status; the noise alone reads none.
func TestConformancePhrasings(t *testing.T) {
	p := newTestProcessor(t)
	ph := loadCorpus(t).Phrasings
	if len(ph.Templates) == 0 || len(ph.Statuses) == 0 {
		t.Fatal("no phrasings in the corpus")
	}
	for _, template := range ph.Templates {
		for _, status := range ph.Statuses {
			text := strings.NewReplacer("{status}", strconv.Itoa(status), "{reason}", ph.Reasons[strconv.Itoa(status)]).Replace(template)
			messages := []string{text}
			for _, extra := range ph.Noise {
				messages = append(messages, text+" "+extra)
			}
			for _, message := range messages {
				got := p.classifier.Classify(classify.Shape{Name: "Error", Message: message})
				if got.HTTPStatus != status {
					t.Errorf("%q: status %d, want %d", message, got.HTTPStatus, status)
				}
			}
		}
	}
	for _, message := range ph.Noise {
		if got := p.classifier.Classify(classify.Shape{Name: "Error", Message: message}); got.HTTPStatus != 0 {
			t.Errorf("%q: status %d, want none", message, got.HTTPStatus)
		}
	}
}

func TestConformanceSpans(t *testing.T) {
	p := newTestProcessor(t)
	for _, c := range loadCorpus(t).Spans {
		t.Run(c.Name, func(t *testing.T) {
			td, root := buildTrace(c.Span)
			if _, err := p.processTraces(context.Background(), td); err != nil {
				t.Fatal(err)
			}
			attributes := root.Attributes().AsRaw()
			for key, want := range c.Expect.Attributes {
				if got, ok := attributes[key]; !ok || !reflect.DeepEqual(got, want) {
					t.Errorf("%s = %#v, want %#v", key, got, want)
				}
			}
			for _, key := range c.Expect.Absent {
				if got, ok := attributes[key]; ok {
					t.Errorf("%s = %#v, want none", key, got)
				}
			}
			if want := c.Expect.Status; want != nil {
				if got := statusName(root.Status().Code()); got != want.Code {
					t.Errorf("status %s, want %s", got, want.Code)
				}
				if want.Message != nil && root.Status().Message() != *want.Message {
					t.Errorf("status message %q, want %q", root.Status().Message(), *want.Message)
				}
			}
			for i, want := range c.Expect.Events {
				if i >= root.Events().Len() || root.Events().At(i).Name() != want.Name {
					t.Errorf("event %d: want %s", i, want.Name)
					continue
				}
				attributes := root.Events().At(i).Attributes()
				for key, value := range want.Attributes {
					if got := stringAttribute(attributes, key); got != value {
						t.Errorf("event %d: %s = %q, want %q", i, key, got, value)
					}
				}
			}
		})
	}
}

func statusName(code ptrace.StatusCode) string {
	switch code {
	case ptrace.StatusCodeError:
		return "error"
	case ptrace.StatusCodeOk:
		return "ok"
	}
	return "unset"
}

// buildTrace lays a case out as one trace in one batch: children end in order, before their parent.
func buildTrace(root spanCase) (ptrace.Traces, ptrace.Span) {
	td := ptrace.NewTraces()
	spans := td.ResourceSpans().AppendEmpty().ScopeSpans().AppendEmpty().Spans()
	traceID := pcommon.TraceID([16]byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16})
	var next uint64
	var clock pcommon.Timestamp = 1_000_000
	var add func(node spanCase, parent pcommon.SpanID) ptrace.Span
	add = func(node spanCase, parent pcommon.SpanID) ptrace.Span {
		next++
		var id pcommon.SpanID
		binary.BigEndian.PutUint64(id[:], next)
		span := spans.AppendEmpty()
		span.SetName(node.Name)
		span.SetTraceID(traceID)
		span.SetSpanID(id)
		span.SetParentSpanID(parent)
		span.SetStartTimestamp(clock)
		switch node.Kind {
		case "client":
			span.SetKind(ptrace.SpanKindClient)
		case "server":
			span.SetKind(ptrace.SpanKindServer)
		default:
			span.SetKind(ptrace.SpanKindInternal)
		}
		putAll(span.Attributes(), node.Attributes)
		for _, e := range node.Events {
			event := span.Events().AppendEmpty()
			event.SetName(e.Name)
			for k, v := range e.Attributes {
				event.Attributes().PutStr(k, v)
			}
		}
		if node.Status != nil {
			switch node.Status.Code {
			case "error":
				span.Status().SetCode(ptrace.StatusCodeError)
			case "ok":
				span.Status().SetCode(ptrace.StatusCodeOk)
			}
			span.Status().SetMessage(node.Status.Message)
		}
		for _, child := range node.Children {
			add(child, id)
		}
		clock += 1000
		span.SetEndTimestamp(clock)
		return span
	}
	// The root is added first, so the returned value stays valid as spans are appended.
	add(root, pcommon.NewSpanIDEmpty())
	return td, spans.At(0)
}

func putAll(m pcommon.Map, attributes map[string]any) {
	for k, v := range attributes {
		switch v := v.(type) {
		case string:
			m.PutStr(k, v)
		case bool:
			m.PutBool(k, v)
		case float64:
			if v == float64(int64(v)) {
				m.PutInt(k, int64(v))
			} else {
				m.PutDouble(k, v)
			}
		case []any:
			s := m.PutEmptySlice(k)
			for _, item := range v {
				s.AppendEmpty().SetStr(item.(string))
			}
		default:
			panic("unsupported attribute " + k + ": " + strconv.Quote(k))
		}
	}
}

func newTestProcessor(t testing.TB) *toolErrors {
	p, err := newToolErrors(createDefaultConfig().(*Config))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// processedCapture is a recorded OTLP/JSON export (a real agent run's), through the processor.
func processedCapture(t testing.TB, path string) ptrace.Traces {
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	td, err := (&ptrace.JSONUnmarshaler{}).UnmarshalTraces(raw)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := newTestProcessor(t).processTraces(context.Background(), td); err != nil {
		t.Fatal(err)
	}
	return td
}
