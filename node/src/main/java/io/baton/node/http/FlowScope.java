package io.baton.node.http;

/**
 * Which flow a call acts on, for keys limited to flow-name patterns. Keys without patterns pass
 * every scope.
 */
public enum FlowScope {
  /** The route spans every flow (the cluster, the stream, lists): refused to limited keys. */
  ALL_FLOWS,
  /** The flow of the run named by the path's {@code {id}}. */
  RUN,
  /** The flow named by the path's {@code {name}}. */
  FLOW,
  /**
   * A run list: limited keys must filter by a {@code flow} they may read ({@code ?flow=}) or by a
   * {@code ?root=} run of one of their flows (its whole tree).
   */
  RUN_LIST,
  /**
   * A stream of run changes: limited keys get only the runs they may read (of their flows, and
   * every run of a tree whose root is of one of their flows); a {@code ?flow=} must be one of
   * theirs unless a {@code ?root=} of their flows names the tree.
   */
  RUN_STREAM,
  /** The flow named in the body: the route itself checks it once it has read the body. */
  BODY,
  /** Not about flows (public routes, metrics). */
  NONE
}
