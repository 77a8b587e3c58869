/**
 * Time and background work: the {@link io.baton.time.Scheduler} every component gets its clock,
 * monotonic time and threads from, and its production form {@link io.baton.time.SystemScheduler},
 * the only place that creates the system clock (an architecture test holds that); named threads,
 * serial executors, completion callbacks that never fail silently, and Baton's duration syntax.
 */
package io.baton.time;
