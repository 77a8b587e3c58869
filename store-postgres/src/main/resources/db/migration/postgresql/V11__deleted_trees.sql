-- Retention deletes a tree in two steps (issue 15). One short transaction takes the tree away
-- from everyone at once: its runs rows (so the API answers 404 and listings drop it, and an
-- owner's append finds no root), checkpoint and signals go, and the root is written here. Its
-- journal and archive, which for a long run are millions of rows, are then
-- deleted in chunks of bounded size, one short transaction each, which take a root from this table
-- with FOR UPDATE SKIP LOCKED and remove it with the chunk that finds nothing left. A node that
-- dies in between leaves the root here, and the next pass on any node finishes it.
CREATE TABLE deleted_trees (
    root_run_id uuid PRIMARY KEY
);
