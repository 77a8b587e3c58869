package io.baton.engine;

import com.fasterxml.jackson.databind.JsonNode;
import io.baton.journal.replay.ClaimRecord;
import io.baton.journal.replay.CommandRecord;
import io.baton.store.RunRecord;
import java.util.List;
import java.util.UUID;

/**
 * A run with its steps, its subflows, its ownership history (every claim, oldest first) and the
 * commands that changed it (who, how, why; oldest first).
 *
 * @param trigger the CloudEvents envelope of the event that started the run, or null for a run
 *     started otherwise (or one whose creation was compacted away)
 */
public record RunView(
    RunRecord run,
    List<StepView> steps,
    List<UUID> children,
    List<ClaimRecord> ownership,
    List<CommandRecord> commands,
    JsonNode trigger) {}
