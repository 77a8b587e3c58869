/**
 * W3C Trace Context for runs, without a tracing library: the {@code traceparent} a caller hands in
 * ({@link io.baton.trace.TraceParent}) and the span ids every node derives the same way from the
 * journal ({@link io.baton.trace.TraceIds}), so a step's outgoing request, its span and the spans
 * of a failover agree without any node telling another.
 */
package io.baton.trace;
