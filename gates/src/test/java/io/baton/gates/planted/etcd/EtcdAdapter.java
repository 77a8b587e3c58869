package io.baton.gates.planted.etcd;

/** Allowed: an adapter on its own. */
public final class EtcdAdapter {}
