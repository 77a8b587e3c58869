package io.baton.engine;

import com.fasterxml.jackson.databind.JsonNode;
import io.baton.journal.ErrorInfo;
import java.time.Instant;

/**
 * A step as a client sees it.
 *
 * @param status PENDING, RETRY_WAIT, WAITING, SUCCEEDED or FAILED (a step executing right now is
 *     PENDING: starting a step is not journaled)
 * @param waitingFor approval, timer or child while WAITING, else null
 */
public record StepView(
    String name,
    String status,
    int attempts,
    JsonNode output,
    ErrorInfo error,
    Instant startedAt,
    Instant finishedAt,
    Instant retryAt,
    String waitingFor,
    Instant dueAt) {}
