// Command exceptionevents runs failed Python tool spans through the processor, as a collector
// would, and writes what they leave: it reads a JSON array of {status, message, stacktrace} on
// stdin, makes each an OpenInference TOOL span with that status message and an `exception` event
// with that message and stacktrace, and writes the same array with the processed values.
// test/rules/go-scrubber.test.ts runs the secret corpus through it.
package main

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"os"

	"go.opentelemetry.io/collector/component/componenttest"
	"go.opentelemetry.io/collector/consumer/consumertest"
	"go.opentelemetry.io/collector/pdata/ptrace"
	"go.opentelemetry.io/collector/processor/processortest"

	"otel-tool-errors/collector/toolerrorprocessor"
)

type failure struct {
	Status     string `json:"status"`
	Message    string `json:"message"`
	Stacktrace string `json:"stacktrace"`
}

func main() {
	var in []failure
	if err := json.NewDecoder(os.Stdin).Decode(&in); err != nil {
		fail(2, "expected a JSON array of {status, message, stacktrace} on stdin:", err)
	}
	td := ptrace.NewTraces()
	spans := td.ResourceSpans().AppendEmpty().ScopeSpans().AppendEmpty().Spans()
	for i, f := range in {
		span := spans.AppendEmpty()
		var id [8]byte
		binary.BigEndian.PutUint64(id[:], uint64(i+1))
		span.SetTraceID([16]byte{1})
		span.SetSpanID(id)
		span.SetName("search")
		span.Attributes().PutStr("openinference.span.kind", "TOOL")
		span.Status().SetCode(ptrace.StatusCodeError)
		span.Status().SetMessage(f.Status)
		event := span.Events().AppendEmpty()
		event.SetName("exception")
		event.Attributes().PutStr("exception.type", "RuntimeError")
		event.Attributes().PutStr("exception.message", f.Message)
		event.Attributes().PutStr("exception.stacktrace", f.Stacktrace)
	}

	factory := toolerrorprocessor.NewFactory()
	sink := new(consumertest.TracesSink)
	ctx := context.Background()
	p, err := factory.CreateTraces(ctx, processortest.NewNopSettings(factory.Type()), factory.CreateDefaultConfig(), sink)
	if err != nil {
		fail(1, err)
	}
	if err := p.Start(ctx, componenttest.NewNopHost()); err != nil {
		fail(1, err)
	}
	if err := p.ConsumeTraces(ctx, td); err != nil {
		fail(1, err)
	}
	_ = p.Shutdown(ctx)

	out := make([]failure, 0, len(in))
	got := sink.AllTraces()[0].ResourceSpans().At(0).ScopeSpans().At(0).Spans()
	for i := 0; i < got.Len(); i++ {
		span := got.At(i)
		attributes := span.Events().At(0).Attributes()
		message, _ := attributes.Get("exception.message")
		stack, _ := attributes.Get("exception.stacktrace")
		out = append(out, failure{Status: span.Status().Message(), Message: message.Str(), Stacktrace: stack.Str()})
	}
	if err := json.NewEncoder(os.Stdout).Encode(out); err != nil {
		fail(1, err)
	}
}

func fail(code int, what ...any) {
	fmt.Fprintln(os.Stderr, append([]any{"exceptionevents:"}, what...)...)
	os.Exit(code)
}
