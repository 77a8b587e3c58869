/**
 * The store SPIs beside the journal: {@link io.baton.store.FlowStore} (flow versions), {@link
 * io.baton.store.RunIndex} (the run rows the journal's appends project into), {@link
 * io.baton.store.SignalInbox} and {@link io.baton.store.StoreHealth}, which one {@link
 * io.baton.store.MetadataStore} implements together because they share transactions, and the
 * content-addressed {@link io.baton.store.BlobStore}, the {@link io.baton.store.AccessStore} (API
 * keys by hash, the audit record); {@link io.baton.store.Stores} holds the stores a node writes to,
 * which share one database.
 */
package io.baton.store;
