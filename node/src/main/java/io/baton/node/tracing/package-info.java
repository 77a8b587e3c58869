/**
 * OpenTelemetry traces of runs: a span per run on each node that executes it and a span per step
 * attempt, in the trace of the run tree ({@link io.baton.node.tracing.RunTracer}); exported over
 * OTLP when the environment names an endpoint ({@link io.baton.node.tracing.NodeTracing}), off
 * otherwise.
 */
package io.baton.node.tracing;
