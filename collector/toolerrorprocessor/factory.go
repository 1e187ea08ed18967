// Package toolerrorprocessor is an OpenTelemetry Collector processor that classifies failed
// AI-agent tool spans, whatever language made them: it writes `error.type`, `tool.error_kind`,
// `tool.error_retryable`, `tool.error_executed` and status ERROR, with the rules of the
// otel-tool-errors package (rules/tool-errors.json).
package toolerrorprocessor

import (
	"context"

	"go.opentelemetry.io/collector/component"
	"go.opentelemetry.io/collector/consumer"
	"go.opentelemetry.io/collector/processor"
	"go.opentelemetry.io/collector/processor/processorhelper"
)

// Type is the processor's name in collector configurations.
var Type = component.MustNewType("tool_errors")

// NewFactory returns the processor's factory.
func NewFactory() processor.Factory {
	return processor.NewFactory(Type, createDefaultConfig,
		processor.WithTraces(createTraces, component.StabilityLevelAlpha))
}

func createDefaultConfig() component.Config {
	return &Config{MaxErrorTypes: 100}
}

func createTraces(ctx context.Context, set processor.Settings, cfg component.Config, next consumer.Traces) (processor.Traces, error) {
	p, err := newToolErrors(cfg.(*Config))
	if err != nil {
		return nil, err
	}
	return processorhelper.NewTraces(ctx, set, cfg, next, p.processTraces,
		processorhelper.WithCapabilities(consumer.Capabilities{MutatesData: true}))
}
