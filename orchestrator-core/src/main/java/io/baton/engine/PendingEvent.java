package io.baton.engine;

import io.baton.journal.JournalEvent;
import java.util.UUID;

/**
 * An event the engine decided on and will journal in the tree's next append.
 *
 * @param outcomeOf the step whose outcome it records (the step stays busy until it is journaled),
 *     or null
 */
record PendingEvent(UUID runId, JournalEvent event, StepKey outcomeOf)
    implements TreeAppends.Decided {}
