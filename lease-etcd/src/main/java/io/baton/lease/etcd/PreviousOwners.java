package io.baton.lease.etcd;

import io.baton.lease.LeaseException;
import io.etcd.jetcd.KV;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.kv.GetResponse;
import io.etcd.jetcd.kv.TxnResponse;
import io.etcd.jetcd.op.Op;
import io.etcd.jetcd.options.GetOption;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads who owned run keys at an earlier revision: the orphan watch's fallback when a revision that
 * deleted runs did not also delete exactly one node key (runs left on a restarted node's previous
 * lease, an operator's delete). One transaction of reads per batch. Answers what it can: runs whose
 * history etcd has compacted, or any run when etcd cannot be reached, are left out. Thread-safe.
 */
final class PreviousOwners implements OrphanClassifier.OwnerLookup {
  private static final Logger log = LoggerFactory.getLogger(PreviousOwners.class);

  private final KV kv;
  private final KeySpace keys;
  private final EtcdCalls calls;
  private final int batchSize;

  PreviousOwners(KV kv, KeySpace keys, EtcdCalls calls, int maxTxnOps) {
    this.kv = kv;
    this.keys = keys;
    this.calls = calls;
    this.batchSize = maxTxnOps;
  }

  @Override
  public Map<UUID, String> ownersAt(long revision, List<UUID> runIds) {
    Map<UUID, String> owners = new HashMap<>();
    GetOption atRevision = GetOption.builder().withRevision(revision).build();
    try {
      for (int from = 0; from < runIds.size(); from += batchSize) {
        List<UUID> batch = runIds.subList(from, Math.min(runIds.size(), from + batchSize));
        Op[] reads =
            batch.stream().map(run -> Op.get(keys.runKey(run), atRevision)).toArray(Op[]::new);
        TxnResponse response =
            calls.await(kv.txn().Then(reads).commit(), "reading earlier owners of runs");
        List<GetResponse> results = response.getGetResponses();
        for (int i = 0; i < batch.size(); i++) {
          List<KeyValue> found = results.get(i).getKvs();
          if (!found.isEmpty()) {
            owners.put(batch.get(i), KeySpace.text(found.get(0).getValue()));
          }
        }
      }
    } catch (LeaseException unknown) {
      log.info(
          "owners of {} orphans at revision {} unknown: {}",
          runIds.size(),
          revision,
          unknown.getMessage());
    }
    return owners;
  }
}
