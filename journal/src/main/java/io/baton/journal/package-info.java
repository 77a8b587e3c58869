/**
 * The write-ahead journal of run trees: its entries and the closed set of events, the {@link
 * io.baton.journal.ExecutionJournal} SPI with its one fence rule ({@link
 * io.baton.journal.AppendRequest}), the JSON codec, and {@link io.baton.journal.GroupCommitter},
 * which batches many trees' appends into one call. Knows nothing of owners, leases or SQL.
 */
package io.baton.journal;
