/**
 * The in-memory {@link io.baton.journal.ExecutionJournal}: the reference implementation of the
 * fence rule, used by tests, the simulation and the embedded store, and held to the same compliance
 * suite as PostgreSQL's.
 */
package io.baton.journal.memory;
