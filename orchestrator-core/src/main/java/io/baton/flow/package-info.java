/**
 * Flow definitions: the YAML (or JSON) files that describe workflows, their validation, identity
 * and templates. {@link io.baton.flow.FlowParser} reads a file into a {@link io.baton.flow.Flow}.
 *
 * <h2>The shape</h2>
 *
 * <pre>{@code
 * name: ship-order                 # required; letters, digits, - and _, starting with a letter
 * description: optional
 * recovery: resume                 # resume | fail; default resume
 * maxResumeAge: 24h                # optional, positive; older interrupted runs are cancelled
 * retention: 7d                    # optional, positive; how long a finished run is kept
 * output: "{{ steps.ship.output }}"  # optional; default: the last step's output
 * trigger:                         # optional: events that start the flow (people still can)
 *   event: [order.created, refund.*]   # one type, or a list; a trailing * matches a prefix
 *   key: "{{ event.data.orderId }}"    # optional dedup key, reads event.* only; default event.id
 * steps:                           # required, at least one
 *   - name: reserve                # required, unique
 *     capability: http             # required, a registered capability
 *     operation: post              # where the capability has operations and no default
 *     needs: [other]               # optional; without it a step follows the one before it
 *     params: {url: "http://…", body: "{{ input.order }}"}
 *     timeout: 5s                  # optional, positive
 *     retry: {maxAttempts: 5, delay: 100ms, backoff: exponential, maxDelay: 2s,
 *             jitter: false, retryOn: [timeout, http_5xx]}
 * }</pre>
 *
 * <p>A {@code retry} block fills in what it does not say: {@value
 * io.baton.flow.RetryPolicy#DEFAULT_MAX_ATTEMPTS} attempts, a {@code 1s} delay, fixed backoff, no
 * cap, no jitter, every error retried. Durations are numbers with a unit ({@code 250ms}, {@code
 * 10s}, {@code 5m}, {@code 2h}, {@code 1d}, {@code 1h30m}); bare numbers are refused.
 *
 * <h2>Validation</h2>
 *
 * <p>Every problem is reported at once as a {@link io.baton.flow.FlowProblem} with the file, the
 * 1-based line and column of the offending node (the key, for an unknown or repeated key) and its
 * field path ({@code steps[2].retry.delay}). The rules: unknown keys (with the allowed ones);
 * missing required keys; wrong types; invalid flow and step names; unknown capabilities (with the
 * known ones) and operations (with the capability's); a missing operation where the capability has
 * no default, or one where it takes none; duplicate step names (at the second); {@code needs}
 * naming an unknown step, the step itself, or a step twice; cycles (naming their steps); template
 * syntax; templates naming unknown steps, reading anything but {@code steps.NAME.output…}, reading
 * {@code run} fields other than {@code id} and {@code attempt}, or reading a step that the reading
 * step does not wait for, directly or through others (the flow's {@code output} may read any step);
 * templates in keys (keys are never rendered); bad durations and zero where it makes no sense
 * ({@code timeout}, {@code maxDelay}, {@code maxResumeAge}, {@code retention}); {@code maxDelay}
 * below {@code delay}; unknown {@code recovery} and {@code backoff} words; {@code maxAttempts} that
 * is not a whole number from 0; and the problems each capability finds in its static params (see
 * {@link io.baton.capability.Capability#validate}).
 *
 * <p>Decisions about the document itself: YAML syntax errors are problems at their line; a file
 * holds one document (a trailing empty one is tolerated); YAML aliases are refused, since a flow's
 * identity is what it says, written out; a key written twice is refused; only {@code true} and
 * {@code false} are booleans ({@code yes}, {@code on} stay strings); non-finite numbers and binary
 * values are refused. Text starting with <code>{</code> that is valid JSON is read as JSON, so
 * tab-indented JSON works.
 *
 * <h2>Identity</h2>
 *
 * <p>A flow's hash is the lowercase hex sha-256 of its canonical JSON: the document as written, not
 * the model with defaults filled in, with keys sorted at every level and no insignificant white
 * space. Formatting, comments and key order leave it unchanged; any change of content changes it
 * (writing out a default included). Parsing the canonical JSON gives the same hash and an equal
 * definition, so a run can always be replayed against the exact flow it started with.
 *
 * <h2>Triggers</h2>
 *
 * <p>A flow with a {@code trigger} gets one run per {@code (flow, dedup key)} for every event whose
 * type matches (see {@link io.baton.flow.EventTrigger}). Its run's input is the event's {@code
 * data}; templates read the whole CloudEvents 1.0 envelope as {@code event.id}, {@code event.type},
 * {@code event.source}, {@code event.time}, {@code event.data.*} (and extension attributes by
 * name). Problems: a trigger that is not a mapping, unknown keys, a missing or empty {@code event},
 * a type pattern with {@code *} anywhere but at its end, and a key template that is not a string or
 * reads anything but {@code event.*}.
 *
 * <h2>Templates</h2>
 *
 * <p>See {@link io.baton.flow.Templates} and {@link io.baton.flow.TemplatePath}.
 */
package io.baton.flow;
