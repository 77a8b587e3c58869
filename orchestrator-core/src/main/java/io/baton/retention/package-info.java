/**
 * Keeping the database small: the {@link io.baton.retention.JournalArchiver} moves journal entries
 * covered by checkpoints out of the hot journal, and the {@link
 * io.baton.retention.RetentionSweeper} deletes finished run trees after their retention. Both run
 * on every node, coordinate through the store (one taker per batch), work in bounded batches with a
 * pause between them, and never block the engine.
 */
package io.baton.retention;
