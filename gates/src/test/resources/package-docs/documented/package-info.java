/** Owns the planted documented package. */
package documented;
