/**
 * Replay: a pure fold of journal entries (optionally from a checkpoint) into a tree's state ({@link
 * io.baton.journal.replay.TreeState}, its runs and their steps). No I/O; the engine decides on what
 * this fold returns.
 */
package io.baton.journal.replay;
