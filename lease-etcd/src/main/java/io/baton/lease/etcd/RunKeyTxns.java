package io.baton.lease.etcd;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.KV;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.kv.TxnResponse;
import io.etcd.jetcd.op.Cmp;
import io.etcd.jetcd.op.CmpTarget;
import io.etcd.jetcd.op.Op;
import io.etcd.jetcd.options.DeleteOption;
import io.etcd.jetcd.options.GetOption;
import io.etcd.jetcd.options.PutOption;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The transactions on run keys, batched: one etcd round trip per batch of runs.
 *
 * <p>Acquiring one run is a nested transaction, so "absent, or already ours" costs no second round
 * trip even though etcd ANDs a transaction's compares:
 *
 * <pre>
 * if createRevision(run) == 0 then put(run, me, lease)          -- free: take it
 * else if value(run) == me   then put(run, me, lease)           -- ours: re-attach to the current lease
 * else get(run)                                                  -- someone else's: who, on which lease
 * </pre>
 *
 * A batch is an outer transaction without compares whose operations are these nested transactions.
 * etcd charges a nested transaction's operations against what its parent leaves of {@code
 * --max-txn-ops}, so a batch holds at most {@code maxTxnOps - 2} runs (two levels of nesting).
 * Every run acquired in a batch gets the batch's revision as its fencing token: the run key's
 * {@code mod_revision}, larger than any revision before it. Thread-safe.
 */
final class RunKeyTxns {
  private final KV kv;
  private final KeySpace keys;
  private final ByteSequence self;
  private final EtcdCalls calls;
  private final int batchSize;

  /** What a transaction found for one run. */
  sealed interface Claim {
    /** The run is ours now, under this token. */
    record Won(long token) implements Claim {}

    /** Another node holds the run, on this lease. */
    record Held(String owner, long leaseId) implements Claim {}
  }

  RunKeyTxns(KV kv, KeySpace keys, String nodeId, EtcdCalls calls, int maxTxnOps) {
    this.kv = kv;
    this.keys = keys;
    this.self = KeySpace.bytes(nodeId);
    this.calls = calls;
    this.batchSize = maxTxnOps - 2;
  }

  int batchSize() {
    return batchSize;
  }

  /** Acquires every run (each at most once) on {@code leaseId}, one transaction per batch. */
  Map<UUID, Claim> acquire(Collection<UUID> runIds, long leaseId) {
    Map<UUID, Claim> claims = new LinkedHashMap<>();
    PutOption onLease = PutOption.builder().withLeaseId(leaseId).build();
    for (List<UUID> batch : batches(runIds)) {
      Op[] ops = batch.stream().map(run -> acquireOp(keys.runKey(run), onLease)).toArray(Op[]::new);
      TxnResponse response =
          calls.await(kv.txn().Then(ops).commit(), "acquiring " + batch.size() + " runs");
      long revision = response.getHeader().getRevision();
      List<TxnResponse> results = response.getTxnResponses();
      for (int i = 0; i < batch.size(); i++) {
        claims.put(batch.get(i), claim(batch.get(i), results.get(i), revision));
      }
    }
    return claims;
  }

  /**
   * Deletes every run key that holds this node's id, in batches; each batch also puts {@code
   * nodeKeyPut} (the node key, unchanged), which marks its revision as a release for {@link
   * OrphanClassifier}. Returns the runs another node holds, with their owners.
   */
  Map<UUID, String> release(Collection<UUID> runIds, Op nodeKeyPut) {
    Map<UUID, String> heldByOthers = new LinkedHashMap<>();
    for (List<UUID> batch : batches(runIds)) {
      List<Op> ops = new ArrayList<>();
      batch.forEach(run -> ops.add(releaseOp(keys.runKey(run))));
      ops.add(nodeKeyPut);
      TxnResponse response =
          calls.await(
              kv.txn().Then(ops.toArray(Op[]::new)).commit(),
              "releasing " + batch.size() + " runs");
      List<TxnResponse> results = response.getTxnResponses();
      for (int i = 0; i < batch.size(); i++) {
        TxnResponse result = results.get(i);
        if (!result.isSucceeded()) {
          List<KeyValue> found = result.getGetResponses().get(0).getKvs();
          if (!found.isEmpty()) {
            heldByOthers.put(batch.get(i), KeySpace.text(found.get(0).getValue()));
          }
        }
      }
    }
    return heldByOthers;
  }

  /** Records offers of {@code runIds} to {@code toNode} on {@code lease}, in batches. */
  void putOffers(Collection<UUID> runIds, String toNode, long lease) {
    PutOption onLease = PutOption.builder().withLeaseId(lease).build();
    for (List<UUID> batch : batches(runIds)) {
      Op[] ops =
          batch.stream()
              .map(run -> Op.put(keys.offerKey(toNode, run), self, onLease))
              .toArray(Op[]::new);
      calls.await(kv.txn().Then(ops).commit(), "offering " + batch.size() + " runs to " + toNode);
    }
  }

  /** Deletes offers of {@code runIds} to {@code toNode}, in batches. */
  void deleteOffers(Collection<UUID> runIds, String toNode) {
    for (List<UUID> batch : batches(runIds)) {
      Op[] ops =
          batch.stream()
              .map(run -> Op.delete(keys.offerKey(toNode, run), DeleteOption.DEFAULT))
              .toArray(Op[]::new);
      calls.await(kv.txn().Then(ops).commit(), "withdrawing " + batch.size() + " offers");
    }
  }

  private Op acquireOp(ByteSequence key, PutOption onLease) {
    Op put = Op.put(key, self, onLease);
    Op ifOurs =
        Op.txn(
            new Cmp[] {new Cmp(key, Cmp.Op.EQUAL, CmpTarget.value(self))},
            new Op[] {put},
            new Op[] {Op.get(key, GetOption.DEFAULT)});
    return Op.txn(
        new Cmp[] {new Cmp(key, Cmp.Op.EQUAL, CmpTarget.createRevision(0))},
        new Op[] {put},
        new Op[] {ifOurs});
  }

  private Op releaseOp(ByteSequence key) {
    return Op.txn(
        new Cmp[] {new Cmp(key, Cmp.Op.EQUAL, CmpTarget.value(self))},
        new Op[] {Op.delete(key, DeleteOption.DEFAULT)},
        new Op[] {Op.get(key, GetOption.DEFAULT)});
  }

  private static Claim claim(UUID runId, TxnResponse result, long revision) {
    if (result.isSucceeded()) {
      return new Claim.Won(revision);
    }
    TxnResponse ifOurs = result.getTxnResponses().get(0);
    if (ifOurs.isSucceeded()) {
      return new Claim.Won(revision);
    }
    List<KeyValue> holder = ifOurs.getGetResponses().get(0).getKvs();
    if (holder.isEmpty()) {
      throw new IllegalStateException("run " + runId + ": etcd reported a holder but no key");
    }
    return new Claim.Held(KeySpace.text(holder.get(0).getValue()), holder.get(0).getLease());
  }

  /** Distinct runs in batches that fit one transaction; etcd refuses a key twice in one txn. */
  private List<List<UUID>> batches(Collection<UUID> runIds) {
    List<UUID> distinct = new ArrayList<>(new LinkedHashSet<>(runIds));
    List<List<UUID>> batches = new ArrayList<>();
    for (int from = 0; from < distinct.size(); from += batchSize) {
      batches.add(distinct.subList(from, Math.min(distinct.size(), from + batchSize)));
    }
    return batches;
  }
}
