/**
 * The engine: one serial loop that holds every run tree this node executes, decides what each does
 * next on journaled state only, and reaches capabilities, the journal and the lease service through
 * {@link io.baton.engine.EngineIo}; the claim path ({@link io.baton.engine.ClaimService}); and the
 * client's commands and queries ({@link io.baton.engine.Orchestrator}). docs/architecture.md ("The
 * engine") says how the package is cut.
 */
package io.baton.engine;
