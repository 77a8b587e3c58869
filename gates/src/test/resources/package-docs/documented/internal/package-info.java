/** Owns things, but does not say that it is internal. */
package documented.internal;
