/**
 * Who calls a node and what they may do: {@link io.baton.node.auth.Principal}s with a {@link
 * io.baton.node.auth.Role}, each role a set of {@link io.baton.node.auth.Permission}s, optionally
 * limited to flow-name patterns; API keys ({@link io.baton.node.auth.ApiKeys}) stored only as
 * SHA-256 hashes in a keys file that every node re-reads when it changes. Deny by default: a role
 * has exactly the permissions listed for it. Knows nothing of HTTP; the API's guard applies it.
 */
package io.baton.node.auth;
