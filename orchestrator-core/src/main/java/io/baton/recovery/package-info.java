/**
 * Where claims come from: {@link io.baton.recovery.StartupRecovery} adopts the runs recorded as
 * this node's when it starts (and after a lost lease), {@link io.baton.recovery.OrphanClaimer}
 * claims what other nodes left, pushed by the lease service and found by a periodic safety-net
 * pass. Both claim through the engine's {@link io.baton.engine.ClaimService}.
 */
package io.baton.recovery;
