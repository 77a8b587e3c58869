/**
 * The node's metrics as Prometheus reads them: a Dropwizard registry whose timers and histograms
 * also count into fixed buckets ({@link io.baton.node.metrics.NodeMetricRegistry}), and the text
 * exposition of any Dropwizard name ({@link io.baton.node.metrics.PrometheusExposition}), with the
 * standard JVM series beside it.
 */
package io.baton.node.metrics;
