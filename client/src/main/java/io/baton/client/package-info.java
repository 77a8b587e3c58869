/**
 * Baton's client for applications: {@link io.baton.client.BatonEvents#enqueue} puts an event in
 * Baton's outbox inside the application's own JDBC transaction, so that the event exists exactly
 * when the application's own writes do. Plain JDBC, no other dependency.
 */
package io.baton.client;
