/**
 * The {@link io.baton.lease.LeaseManager} on etcd (jetcd): the node's lease and node key, run keys
 * acquired in batched transactions whose revisions are fencing tokens, and a watch that reports
 * departed nodes and orphaned runs. {@link io.baton.lease.etcd.EtcdLeaseManager} is the entry
 * point; the other types are its parts.
 */
package io.baton.lease.etcd;
