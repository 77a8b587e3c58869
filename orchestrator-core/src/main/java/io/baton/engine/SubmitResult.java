package io.baton.engine;

import io.baton.store.RunRecord;

/** A submitted run, and whether this submission created it (false: the idempotency key existed). */
public record SubmitResult(RunRecord run, boolean created) {}
