-- More room on each page of runs for heap-only (HOT) updates of latest_seq. Every step append bumps
-- its root's latest_seq; a batch bumps many roots at once, and roots created together share pages,
-- so the new row versions of one batch need room on the same page in the same transaction (nothing
-- of it can be pruned before it commits). At fillfactor 80 two thirds of those bumps spilled to
-- other pages, and a spilled update writes an entry into every index of runs: with V3's listing
-- indexes that cost the engine benchmark about a tenth of its throughput. At 55 two thirds of all
-- updates of runs are HOT (the rest are status changes, which change indexed columns anyway), and
-- the throughput is back (docs/benchmarks.md, "Run-row updates and the listing indexes").
-- Applies to pages written from now on; existing pages keep their layout until rewritten.
ALTER TABLE runs SET (fillfactor = 55);
