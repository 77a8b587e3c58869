/**
 * The in-memory lease service, shared by the nodes of one JVM (tests, the simulation, {@code baton
 * dev}), with revisions and expiry on the injected scheduler, held to the same compliance suite as
 * etcd.
 */
package io.baton.lease.memory;
