package io.baton.engine;

import io.baton.journal.replay.ClaimRecord;
import io.baton.store.RunRecord;
import java.util.List;
import java.util.UUID;

/** A run with its steps, its subflows and its ownership history (every claim, oldest first). */
public record RunView(
    RunRecord run, List<StepView> steps, List<UUID> children, List<ClaimRecord> ownership) {}
