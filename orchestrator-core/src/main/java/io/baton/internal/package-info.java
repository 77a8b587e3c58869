/**
 * Not API: switches the tests use to break the engine on purpose (see {@link
 * io.baton.internal.Defect}). Code outside Baton must not use this package.
 */
package io.baton.internal;
