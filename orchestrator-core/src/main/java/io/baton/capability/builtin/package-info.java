/**
 * The capabilities every node has: {@code http}, {@code log}, {@code noop}, {@code sleep}, {@code
 * approval} and {@code flow}; {@link io.baton.capability.builtin.BuiltInCapabilities} registers
 * them, together with those found through {@link java.util.ServiceLoader}.
 *
 * <p>Each built-in checks its params twice with the same rules: statically when a flow is parsed
 * (where a value holding a template is left for later), and on the rendered params before it acts,
 * failing with {@code invalid_params} (not retryable) when they are wrong. None throws out of
 * {@code invoke}: a bug becomes {@code internal_error}. All are stateless apart from the shared
 * {@link java.net.http.HttpClient}, and thread-safe.
 */
package io.baton.capability.builtin;
