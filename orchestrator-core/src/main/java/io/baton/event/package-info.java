/**
 * Event triggers: events (CloudEvents) received over the API, enqueued by applications in their own
 * transactions, or emitted by steps, start the flows whose {@code trigger} matches them, at most
 * one run per {@code (flow, dedup key)}.
 *
 * <p>Exactly once is decided by the store: a triggered run is submitted with the idempotency key
 * {@code event:<flow>/<dedup key>}, and the run index holds at most one run per idempotency key (a
 * unique constraint in PostgreSQL, checked in the journal's append). Everything before that point
 * may repeat — two nodes receiving one event, a retried request, a dispatcher that dies between
 * storing an event and marking it triggered, a replay — and each repeat finds the run the first one
 * created.
 */
package io.baton.event;
