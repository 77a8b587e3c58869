package io.baton.engine;

import io.baton.journal.JournalEvent;
import java.util.UUID;

/**
 * An event the engine decided on and will journal in the tree's next append.
 *
 * @param settles the step whose outcome it records (its in-memory phase ends once journaled), or
 *     null
 */
record PendingEvent(UUID runId, JournalEvent event, StepKey settles) {}
