/**
 * The in-memory stores, created together by {@link io.baton.store.memory.InMemoryStores}: a journal
 * that projects its appends into the metadata store under one lock, as PostgreSQL does in one
 * transaction. Held to the same compliance suites as PostgreSQL's.
 */
package io.baton.store.memory;
