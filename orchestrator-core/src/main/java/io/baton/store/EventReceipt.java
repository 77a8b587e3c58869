package io.baton.store;

/**
 * The answer to recording an event.
 *
 * @param stored the event as stored: this one, or the one that was stored first with its {@code
 *     (source, id)}
 * @param duplicate whether an event with the same {@code (source, id)} was stored already
 */
public record EventReceipt(StoredEvent stored, boolean duplicate) {}
