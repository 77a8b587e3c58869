/**
 * Who calls a node and what they may do: {@link io.baton.node.auth.Principal}s with a {@link
 * io.baton.node.auth.Role}, each role a set of {@link io.baton.node.auth.Permission}s, optionally
 * limited to flow-name patterns; API keys stored only as SHA-256 hashes, in a keys file that every
 * node re-reads when it changes ({@link io.baton.node.auth.ApiKeys}) and in the store, where admins
 * create and revoke them ({@link io.baton.node.auth.KeyAdministration}, {@link
 * io.baton.node.auth.StoredKeys}); OIDC/JWT tokens verified against the issuer's JWKS ({@link
 * io.baton.node.auth.OidcTokens}); the audit record ({@link io.baton.node.auth.AuditTrail}). Deny
 * by default: a role has exactly the permissions listed for it. Knows nothing of HTTP; the API's
 * guard applies it.
 */
package io.baton.node.auth;
