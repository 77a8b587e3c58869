/**
 * The store SPIs beside the journal: the metadata store (flows, the run index that the journal's
 * appends project into, the signal inbox) and the content-addressed blob store; {@link
 * io.baton.store.Stores} holds the three stores a node writes to, which share one database.
 */
package io.baton.store;
