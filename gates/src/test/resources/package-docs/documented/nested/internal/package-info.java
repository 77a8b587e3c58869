/** Not API: an internal package that says so. */
package documented.nested.internal;
