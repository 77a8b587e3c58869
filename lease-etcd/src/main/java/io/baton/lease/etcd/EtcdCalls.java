package io.baton.lease.etcd;

import io.baton.lease.LeaseException;
import io.baton.lease.LeaseUnavailableException;
import io.baton.time.Durations;
import io.etcd.jetcd.common.exception.EtcdException;
import io.grpc.Status;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Waits for jetcd's futures with a deadline and turns etcd's failures into Baton's: what a retry
 * may cure (etcd unreachable, no leader, the node lease gone) becomes {@link
 * LeaseUnavailableException}, anything else (bad credentials, a request etcd refuses) a plain
 * {@link LeaseException}. Thread-safe.
 */
final class EtcdCalls {
  private static final Set<Status.Code> RETRYABLE =
      Set.of(
          Status.Code.UNAVAILABLE,
          Status.Code.DEADLINE_EXCEEDED,
          Status.Code.CANCELLED,
          Status.Code.ABORTED,
          Status.Code.RESOURCE_EXHAUSTED,
          Status.Code.UNKNOWN);

  private final String nodeId;
  private final Duration requestTimeout;
  private final EtcdTlsFailure tls;

  EtcdCalls(String nodeId, Duration requestTimeout, EtcdTlsFailure tls) {
    this.nodeId = nodeId;
    this.requestTimeout = requestTimeout;
    this.tls = tls;
  }

  Duration requestTimeout() {
    return requestTimeout;
  }

  <T> T await(CompletableFuture<T> call, String what) {
    return await(call, what, requestTimeout);
  }

  /** The call's result, or an exception when it fails or takes longer than {@code timeout}. */
  <T> T await(CompletableFuture<T> call, String what, Duration timeout) {
    try {
      return call.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      call.cancel(true);
      throw new LeaseUnavailableException(
          "node " + nodeId + ": etcd did not answer " + what + " within " + format(timeout),
          nodeId,
          e);
    } catch (InterruptedException e) {
      call.cancel(true);
      Thread.currentThread().interrupt();
      throw new LeaseUnavailableException(
          "node " + nodeId + ": interrupted while waiting for " + what, nodeId, e);
    } catch (ExecutionException e) {
      throw translate(e.getCause(), what);
    }
  }

  LeaseException translate(Throwable failure, String what) {
    Throwable cause = unwrap(failure);
    Optional<String> handshake = tls.explain(cause);
    if (handshake.isPresent()) {
      // retryable: etcd's certificate may be renewed, or the node's CA file corrected, while it
      // waits
      return new LeaseUnavailableException(
          "node " + nodeId + ": " + tls.connection() + ": " + what + " failed: " + handshake.get(),
          nodeId,
          cause);
    }
    String message = "node " + nodeId + ": " + what + " failed: " + cause.getMessage();
    if (isLeaseNotFound(cause) || RETRYABLE.contains(code(cause))) {
      return new LeaseUnavailableException(message, nodeId, cause);
    }
    return new LeaseException(message, null, nodeId, cause);
  }

  /** etcd says the lease does not exist (it expired or was revoked). */
  static boolean isLeaseNotFound(Throwable failure) {
    Throwable cause = unwrap(failure);
    return code(cause) == Status.Code.NOT_FOUND
        && cause.getMessage() != null
        && cause.getMessage().contains("lease not found");
  }

  static Throwable unwrap(Throwable failure) {
    Throwable cause = failure;
    while ((cause instanceof CompletionException || cause instanceof ExecutionException)
        && cause.getCause() != null) {
      cause = cause.getCause();
    }
    return cause;
  }

  private static Status.Code code(Throwable cause) {
    if (cause instanceof EtcdException etcd) {
      return Status.Code.valueOf(etcd.getErrorCode().name());
    }
    return Status.fromThrowable(cause).getCode();
  }

  private static String format(Duration duration) {
    return Durations.format(duration);
  }
}
