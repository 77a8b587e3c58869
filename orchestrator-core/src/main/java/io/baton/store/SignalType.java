package io.baton.store;

/** What a person (or a client) asks of a run through the signal inbox. */
public enum SignalType {
  APPROVE,
  REJECT,
  CANCEL,
  /** End the named step's retry back-off: its next attempt starts now. */
  RETRY_NOW
}
