package io.baton.store;

/**
 * Everything a node keeps beside the journal and the blobs, in one store: flow versions, the run
 * index that the journal's appends project into, the signal inbox, and a health check. The parts
 * are one store because they share transactions (the journal's append updates the run rows and
 * clears a finished tree's signals; adding a signal wakes a parked root). Code that needs one part
 * takes that part's interface. Implementations are thread-safe and pass the compliance suite of
 * every part.
 */
public interface MetadataStore
    extends FlowStore, RunIndex, SignalInbox, StoreHealth, RunRetention {}
