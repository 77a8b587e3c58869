/**
 * Baton's root: {@link io.baton.BatonException}, the unchecked root of every exception Baton
 * throws, whose family roots live in the packages that throw them.
 */
package io.baton;
