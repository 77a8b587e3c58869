package io.baton.engine;

import com.fasterxml.jackson.databind.JsonNode;
import io.baton.journal.ErrorInfo;
import java.time.Instant;

/**
 * A step as a client sees it.
 *
 * @param status PENDING, RUNNING, RETRY_WAIT, WAITING, SUCCEEDED or FAILED. RUNNING only in flows
 *     that journal their steps' starts ({@code recovery: fail} or a {@code maxResumeAge}); in
 *     others a step executing right now is PENDING
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
