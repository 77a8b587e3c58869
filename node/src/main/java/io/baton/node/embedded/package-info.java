/**
 * The embedded store of {@code baton dev}: the in-memory stores made durable by an append-only log
 * of every change in one directory, forced to disk before a change is acknowledged and replayed on
 * open ({@link io.baton.node.embedded.FileStores}). One node only: the directory is locked.
 */
package io.baton.node.embedded;
