package io.baton.engine;

import io.baton.flow.Flow;
import io.baton.store.BlobStore;
import io.baton.store.FlowRecord;
import io.baton.store.FlowStore;
import io.baton.store.StoreException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Flows by name and by hash. A flow's definition is stored once, content-addressed, as its
 * canonical JSON; each name keeps every version it had, so a run always replays against the exact
 * definition it started with. Thread-safe; definitions are cached by hash (they never change).
 */
public final class FlowRegistry {
  public static final String BLOB_TYPE = "flow";

  private final FlowReader reader;
  private final FlowStore flowStore;
  private final BlobStore blobs;
  private final Clock clock;
  private final ConcurrentHashMap<String, Flow> byHash = new ConcurrentHashMap<>();

  public FlowRegistry(FlowReader reader, FlowStore flowStore, BlobStore blobs, Clock clock) {
    this.reader = reader;
    this.flowStore = flowStore;
    this.blobs = blobs;
    this.clock = clock;
  }

  /**
   * Validates and stores a flow; the name's newest version is this one from now on.
   *
   * @throws io.baton.flow.FlowValidationException the text is not a valid flow
   */
  public Flow apply(String text, String sourceName) {
    return register(read(text, sourceName));
  }

  /**
   * Validates a flow without storing it.
   *
   * @throws io.baton.flow.FlowValidationException the text is not a valid flow
   */
  public Flow read(String text, String sourceName) {
    return reader.read(text, sourceName);
  }

  /** Stores an already validated flow. */
  public Flow register(Flow flow) {
    String hash = blobs.put(BLOB_TYPE, flow.canonicalJson().getBytes(StandardCharsets.UTF_8));
    if (!hash.equals(flow.hash())) {
      throw new IllegalStateException(
          "flow " + flow.name() + " hashes to " + hash + " but claims " + flow.hash());
    }
    byHash.put(hash, flow);
    if (!flowStore.latestFlow(flow.name()).map(r -> r.hash().equals(hash)).orElse(false)) {
      flowStore.saveFlow(new FlowRecord(flow.name(), hash, clock.instant()));
    }
    return flow;
  }

  /** The newest version of the named flow. */
  public Optional<Flow> latest(String name) {
    return flowStore.latestFlow(name).map(record -> byHash(record.hash()));
  }

  /**
   * The flow with this hash.
   *
   * @throws StoreException no flow with this hash is stored
   */
  public Flow byHash(String hash) {
    Flow cached = byHash.get(hash);
    if (cached != null) {
      return cached;
    }
    byte[] content =
        blobs
            .get(hash)
            .orElseThrow(
                () -> new StoreException("no flow definition with hash " + hash, null, null))
            .content();
    Flow flow = reader.read(new String(content, StandardCharsets.UTF_8), "flow " + hash);
    byHash.put(hash, flow);
    return flow;
  }

  public List<FlowRecord> list() {
    return flowStore.listFlows();
  }

  public List<FlowRecord> versions(String name) {
    return flowStore.flowVersions(name);
  }
}
