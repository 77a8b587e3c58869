-- Retry-now (issue 12): a person ends a failed step's back-off early. The request waits in the
-- signal inbox like an approval until the tree's owner applies it, so the inbox takes its type.
ALTER TABLE run_signals DROP CONSTRAINT run_signals_type_check;
ALTER TABLE run_signals
    ADD CONSTRAINT run_signals_type_check CHECK (type IN ('APPROVE', 'REJECT', 'CANCEL', 'RETRY_NOW'));
