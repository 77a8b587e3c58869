/**
 * The capabilities SPI: what a step invokes ({@link io.baton.capability.Capability}), with what
 * ({@link io.baton.capability.Invocation}), how it ends ({@link io.baton.capability.StepOutcome},
 * error codes) and how it is asked to stop; {@link io.baton.capability.CapabilityRegistry} holds a
 * node's capabilities by name.
 */
package io.baton.capability;
