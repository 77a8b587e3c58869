// Baton's dashboard: plain JavaScript on the public API (/api/v1), no build step, no external
// requests. Hash routes: #/runs?filters, #/run/<id>, #/flows, #/flow/<name>, #/cluster,
// #/event/<seq> and #/event?source=&id= (an event and the runs it started).
//
// Authentication: when the node needs it, the dashboard asks for an API key and keeps it in
// sessionStorage (gone when the tab closes; never in a URL, never in localStorage). Every call
// sends it as 'Authorization: Bearer'. The live stream is read with fetch() rather than
// EventSource, because EventSource cannot send headers and the alternative, a token in the query
// string, would put the key in access logs and browser history. What the signed-in role may not do
// is not shown: GET /api/v1/me lists the permissions the node's route table grants it.
//
// With an identity provider configured (GET /api/v1/sign-in names its issuer and the dashboard's
// client id), the sign-in page also offers the authorization-code flow with PKCE (RFC 7636): a
// random verifier and state stay in sessionStorage, the browser goes to the issuer's authorization
// endpoint with the verifier's SHA-256 (S256), comes back to / with a code, and trades code and
// verifier at the token endpoint for an access token, kept like an API key. The code is taken out
// of the address at once; a state that does not match this tab's request is refused.
//
// When the token endpoint also gives a refresh_token, it is kept beside the access token (same
// sessionStorage) and traded for a new access token before the old one expires (a quarter of its
// life, at most 30 s, before), and at once when the node answers 401 (the call is then made again
// once). When the identity provider refuses to refresh (400 or 401: the session ended, the refresh
// token expired or was revoked), the dashboard signs out and says why. When it cannot be asked (a
// network error, a 5xx), the renewal is tried again after 1 s, 2 s, 4 s ... (at most 30 s apart)
// while the access token is still good, and once more on the node's next 401, with a small notice
// in the header; only a token that expires with no renewal signs out.
'use strict';

const API = '/api/v1';
const STATUSES = ['PENDING', 'RUNNING', 'WAITING', 'SUCCEEDED', 'FAILED', 'CANCELLED'];
const STATES = ['recoverable-failure', 'stuck', 'retrying', 'waiting-approval', 'waiting-timer', 'waiting-child'];
const PAGE = 50;
const main = document.getElementById('main');
const TOKEN_KEY = 'baton.token';
const PKCE_KEY = 'baton.pkce';
const REFRESH_KEY = 'baton.refresh'; // { refreshToken, tokenEndpoint, clientId, expiresAt }
const REFRESH_MARGIN_MS = 30000;
const RENEWAL_FIRST_RETRY_MS = 1000; // a renewal that could not reach the provider: again after 1 s,
const RENEWAL_MAX_RETRY_MS = 30000;  // then twice as long each time, at most this
const RENEWAL_GRACE_MS = 60000;      // how long to keep trying for a token whose expiry is unknown
let refreshTimer = null;
let refreshing = null;   // the refresh under way, shared by every caller that needs it
let renewalFailing = null; // while the provider cannot be reached: { attempts, lastAt, deadline, reason }
let renewalWaiters = [];   // told whether the failing renewal came through (true) or ended (false)
let signInOptions = null; // GET /sign-in: how one may sign in (fetched once)
let stream = null;       // the live stream of the current page: { close() }
let me = null;           // GET /me: who is signed in and the permissions the route table grants
let currentRoute = 0;    // bumped on every navigation: a view still loading for an older one stays quiet

// Replaces the page, unless the person navigated elsewhere while this view was loading.
function show(route, ...nodes) {
  if (route === currentRoute) main.replaceChildren(...nodes.filter((node) => node !== null && node !== undefined));
}

// --- small helpers ------------------------------------------------------------------------

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith('on')) node.addEventListener(key.slice(2), value);
    else if (key === 'text') node.textContent = value;
    else node.setAttribute(key, value === true ? '' : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

function svgEl(tag, attrs) {
  const node = document.createElementNS('http://www.w3.org/2000/svg', tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  return node;
}

function token() { return sessionStorage.getItem(TOKEN_KEY); }

function withToken(headers) {
  const all = Object.assign({}, headers || {});
  const key = token();
  if (key) all.Authorization = 'Bearer ' + key;
  return all;
}

async function api(path, options, refreshed) {
  const request = Object.assign({}, options || {});
  request.headers = withToken(Object.assign({}, options && options.headers));
  const response = await fetch(API + path, request);
  if (response.status === 401 && !refreshed && canRefresh()) {
    if (await refreshToken()) return api(path, options, true);
    if (canRefresh()) { // still signed in: the provider could not be reached, the retries go on
      throw new Error('The sign-in could not be renewed yet (' + (renewalFailing ? renewalFailing.reason : 'the identity provider could not be reached') + '); trying again');
    }
    const ended = new Error('The identity provider did not renew the sign-in');
    ended.status = 401; // refreshToken signed out and said why
    throw ended;
  }
  const text = await response.text();
  let body = null;
  try { body = text ? JSON.parse(text) : null; } catch (e) { body = { detail: text }; }
  if (!response.ok) {
    const error = new Error((body && (body.detail || body.title)) || ('HTTP ' + response.status));
    error.status = response.status;
    if (response.status === 401) signIn(token() ? error.message : null);
    throw error;
  }
  return body;
}

// Whether the signed-in caller holds a permission of the route table, such as 'runs.resume'.
function may(permission) { return !!me && me.permissions.includes(permission); }

function toast(message) {
  const box = document.getElementById('toast');
  box.textContent = message;
  box.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => { box.hidden = true; }, 8000);
}

function badge(status) { return el('span', { class: 'badge s-' + status, text: status }); }
// The derived state, and for a WAITING run what the engine recorded when it parked it: the step,
// attempt n of m and the next try for a retry, the due time for a timer.
function stateBadge(state, waiting) {
  if (!state) return '';
  const detail = waitDetail(waiting);
  return el('span', { class: 'state-cell' }, el('span', { class: 'badge state', text: state, title: detail || state }),
    detail ? el('span', { class: 'wait-detail', text: ' ' + detail }) : '');
}
function waitDetail(waiting) {
  if (!waiting) return '';
  if (waiting.for === 'retry') return waiting.step + ' · attempt ' + waiting.attempt + ' of ' + waiting.maxAttempts + ' at ' + when(waiting.at);
  if (waiting.for === 'timer') return waiting.step + ' · due ' + when(waiting.at);
  return waiting.step;
}
function shortId(id) { return id ? id.slice(0, 8) : ''; }
function when(instant) { return instant ? new Date(instant).toLocaleString() : ''; }
// A span of time as a person reads it: 850 ms, 12.3 s, 4 min 10 s, 2 h 5 min.
function humanDuration(millis) {
  const ms = Math.max(0, Math.round(millis));
  if (ms < 1000) return ms + ' ms';
  if (ms < 60000) return (ms / 1000).toFixed(1) + ' s';
  const seconds = Math.floor(ms / 1000);
  if (seconds < 3600) return Math.floor(seconds / 60) + ' min ' + (seconds % 60) + ' s';
  return Math.floor(seconds / 3600) + ' h ' + Math.floor((seconds % 3600) / 60) + ' min';
}
// How long a step took (finished − started); one not finished: the time so far (by this browser's
// clock), saying so. Empty for a step that has not started.
function stepDuration(step) {
  if (!step || !step.startedAt) return '';
  if (step.finishedAt) return humanDuration(Date.parse(step.finishedAt) - Date.parse(step.startedAt));
  return soFar(step.startedAt, stepDoing(step));
}
function stepDoing(step) {
  return step.status === 'RUNNING' || step.status === 'PENDING' ? 'running' : step.status.toLowerCase().replace('_', ' ');
}
function soFar(since, doing) {
  return humanDuration(Date.now() - Date.parse(since)) + ' so far' + (doing ? ', ' + doing : '');
}
// Attributes that make an element show a step's time so far, growing while the page is open.
function liveSince(step, withDoing) {
  return step && step.startedAt && !step.finishedAt ? { 'data-live-since': step.startedAt, 'data-doing': withDoing ? stepDoing(step) : '' } : {};
}
setInterval(() => document.querySelectorAll('[data-live-since]').forEach((node) => {
  node.textContent = soFar(node.dataset.liveSince, node.dataset.doing);
}), 1000);
function pretty(value) { return el('pre', { text: JSON.stringify(value, null, 2) }); }

// The run stream (server-sent events) read with fetch, so that it carries the Authorization
// header; reconnects after a second with Last-Event-ID, as EventSource would. Given the id of the
// last event a closed stream of this page had, starts there: the node replays what changed since.
function openStream(query, onRun, since) {
  closeStream();
  const live = document.getElementById('live');
  const controller = new AbortController();
  let lastId = since === undefined ? null : since;
  let closed = false;
  const handle = {
    query, onRun,
    lastId() { return lastId; },
    close() { closed = true; controller.abort(); },
  };
  stream = handle;
  const dispatch = (event, data) => {
    if (event === 'run') onRun(JSON.parse(data));
    else if (event === 'reload') route();
  };
  async function connect() {
    const headers = withToken({ Accept: 'text/event-stream' });
    if (lastId !== null) headers['Last-Event-ID'] = lastId;
    const response = await fetch(API + '/stream/runs' + (query ? '?' + query : ''), { headers, signal: controller.signal });
    if (response.status === 401) {
      // a renewed token reconnects below; a refused renewal has signed out already; while the
      // provider cannot be reached the stream waits for the renewal that comes through
      if (canRefresh()) {
        let renewed = await refreshToken();
        if (!renewed && canRefresh()) renewed = renewalFailing ? await whenRenewed() : true;
        if (!renewed) closed = true;
        return;
      }
      closed = true; signIn('Your API key is no longer accepted'); return;
    }
    if (response.status === 403) { closed = true; live.textContent = 'no live updates for this key'; return; }
    if (!response.ok || !response.body) throw new Error('HTTP ' + response.status);
    live.textContent = 'live';
    live.classList.add('on');
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    let event = 'message';
    let data = [];
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += value;
      let newline;
      while ((newline = buffer.search(/\r\n|\r|\n/)) >= 0) {
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + (buffer.startsWith('\r\n', newline) ? 2 : 1));
        if (line === '') {
          if (data.length) dispatch(event, data.join('\n'));
          event = 'message';
          data = [];
        } else if (!line.startsWith(':')) {
          const colon = line.indexOf(':');
          const field = colon < 0 ? line : line.slice(0, colon);
          const text = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
          if (field === 'event') event = text;
          else if (field === 'data') data.push(text);
          else if (field === 'id') lastId = text;
        }
      }
    }
  }
  (async () => {
    while (!closed) {
      try { await connect(); } catch (e) { /* network error or aborted: reconnect below */ }
      if (closed || handle !== stream) return;
      live.textContent = 'reconnecting…';
      live.classList.remove('on');
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  })();
}

function closeStream() {
  if (stream) { stream.close(); stream = null; }
}

// A page left stays in the browser's back/forward cache, and its stream with it: each would hold
// one of the six connections HTTP/1.1 allows per host until the cache drops the page, and fresh
// loads of the dashboard would wait (close to a minute, seen). So the stream closes when the page
// is hidden. When the page comes back from the cache, its stream reopens where it stopped: the node
// replays the runs changed meanwhile, or asks for a reload when too many did. A page whose stream
// had no event yet has no place to start from: it is shown afresh instead.
let suspended = null; // the stream closed by pagehide: { query, onRun, lastId }
window.addEventListener('pagehide', () => {
  suspended = stream ? { query: stream.query, onRun: stream.onRun, lastId: stream.lastId() } : null;
  closeStream();
  clearInterval(clusterView.leases);
  const live = document.getElementById('live');
  live.textContent = 'paused';
  live.classList.remove('on');
});
window.addEventListener('pageshow', (event) => {
  const left = suspended;
  suspended = null;
  if (!event.persisted || !me) return;
  if (left && left.lastId !== null && !location.hash.startsWith('#/cluster')) openStream(left.query, left.onRun, left.lastId);
  else route();
});

// --- signing in -------------------------------------------------------------------------------

// Asks for an API key (the node answered 401): the key stays in this tab's sessionStorage.
function signIn(why) {
  closeStream();
  forgetRefresh();
  sessionStorage.removeItem(TOKEN_KEY);
  me = null;
  currentRoute++;
  renderSelf();
  const key = el('input', { id: 'api-key', type: 'password', autocomplete: 'off', 'aria-label': 'API key', placeholder: 'bk_…' });
  const form = el('form', { id: 'sign-in', class: 'card', 'aria-label': 'Sign in' },
    el('h1', { text: 'Sign in' }),
    el('p', { class: 'muted', text: 'This node needs an API key (ask an admin: baton keys create). It is kept in this tab only.' }),
    why ? el('p', { class: 'error', id: 'sign-in-reason', text: why }) : null,
    el('label', {}, 'API key', key),
    el('div', { class: 'actions' }, el('button', { type: 'submit', id: 'sign-in-button' }, 'Sign in')));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    sessionStorage.setItem(TOKEN_KEY, key.value.trim());
    await start();
  });
  main.replaceChildren(form);
  key.focus();
  offerIssuer(form);
}

// The sign-in page's button for the identity provider, when the node names one.
async function offerIssuer(form) {
  if (signInOptions === null) {
    try {
      const response = await fetch(API + '/sign-in');
      signInOptions = response.ok ? await response.json() : { oidc: null };
    } catch (e) { signInOptions = { oidc: null }; }
  }
  const oidc = signInOptions.oidc;
  if (!oidc || !form.isConnected) return;
  const button = el('button', { type: 'button', id: 'sign-in-oidc' }, 'Sign in with ' + new URL(oidc.issuer).host);
  button.addEventListener('click', () => signInWithIssuer(oidc).catch((error) => signIn(error.message)));
  form.insertBefore(el('div', { class: 'actions' }, button), form.querySelector('label'));
}

function base64url(bytes) {
  let text = '';
  for (const byte of new Uint8Array(bytes)) text += String.fromCharCode(byte);
  return btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function randomText() { return base64url(crypto.getRandomValues(new Uint8Array(32))); }

function redirectUri() { return location.origin + '/'; }

// The issuer's discovery document: where its authorization and token endpoints are.
async function discovery(issuer) {
  const address = issuer.replace(/\/$/, '') + '/.well-known/openid-configuration';
  const response = await fetch(address);
  if (!response.ok) throw new Error('The identity provider\'s discovery document ' + address + ' answered HTTP ' + response.status);
  const provider = await response.json();
  if (provider.issuer !== issuer) throw new Error('The discovery document ' + address + ' names another issuer: ' + provider.issuer);
  return provider;
}

async function signInWithIssuer(oidc) {
  const provider = await discovery(oidc.issuer);
  const verifier = randomText();
  const state = randomText();
  const challenge = base64url(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier)));
  sessionStorage.setItem(PKCE_KEY, JSON.stringify({
    verifier, state, clientId: oidc.clientId, tokenEndpoint: provider.token_endpoint, hash: location.hash,
  }));
  const query = new URLSearchParams({
    response_type: 'code', client_id: oidc.clientId, redirect_uri: redirectUri(), scope: oidc.scope,
    state, code_challenge: challenge, code_challenge_method: 'S256',
  });
  location.assign(provider.authorization_endpoint + '?' + query);
}

// Back from the issuer (?code=&state= or ?error=): trades the code and this tab's verifier for a
// token. Answers why it failed, or null (signed in, or nothing to finish).
async function finishSignIn() {
  const params = new URLSearchParams(location.search);
  if (!params.has('code') && !params.has('error')) return null;
  const pending = JSON.parse(sessionStorage.getItem(PKCE_KEY) || 'null');
  sessionStorage.removeItem(PKCE_KEY);
  history.replaceState(null, '', location.pathname + (pending && pending.hash ? pending.hash : location.hash));
  if (params.has('error')) return 'The identity provider refused: ' + (params.get('error_description') || params.get('error'));
  if (!pending || params.get('state') !== pending.state) return 'The answer from the identity provider does not match this tab\'s sign-in (state); sign in again';
  const response = await fetch(pending.tokenEndpoint, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code', code: params.get('code'), redirect_uri: redirectUri(),
      client_id: pending.clientId, code_verifier: pending.verifier,
    }),
  });
  const answer = await response.json().catch(() => ({}));
  if (!response.ok || !answer.access_token) {
    return 'The identity provider gave no token: ' + (answer.error_description || answer.error || 'HTTP ' + response.status);
  }
  keepTokens(answer, pending.tokenEndpoint, pending.clientId);
  return null;
}

// Keeps a token endpoint's answer: the access token, and what renewing it needs when the answer
// holds a refresh token; schedules the renewal.
function keepTokens(answer, tokenEndpoint, clientId) {
  sessionStorage.setItem(TOKEN_KEY, answer.access_token);
  if (!answer.refresh_token) { forgetRefresh(); return; }
  const seconds = Number(answer.expires_in) || secondsLeft(answer.access_token);
  sessionStorage.setItem(REFRESH_KEY, JSON.stringify({
    refreshToken: answer.refresh_token, tokenEndpoint, clientId,
    expiresAt: seconds ? Date.now() + seconds * 1000 : null,
  }));
  scheduleRefresh();
}

// The seconds a JWT access token has left by its exp claim, or null when it is not a JWT.
function secondsLeft(accessToken) {
  try {
    const payload = accessToken.split('.')[1].replace(/-/g, '+').replace(/_/g, '/');
    const exp = JSON.parse(atob(payload)).exp;
    return typeof exp === 'number' ? exp - Date.now() / 1000 : null;
  } catch (e) { return null; }
}

function refreshState() { return JSON.parse(sessionStorage.getItem(REFRESH_KEY) || 'null'); }

function canRefresh() { return refreshState() !== null; }

function forgetRefresh() {
  clearTimeout(refreshTimer);
  refreshTimer = null;
  sessionStorage.removeItem(REFRESH_KEY);
  renewalSettled(false);
}

// Renews the access token a quarter of its life (at most REFRESH_MARGIN_MS) before it expires.
function scheduleRefresh() {
  clearTimeout(refreshTimer);
  const state = refreshState();
  if (!state || !state.expiresAt) return;
  const left = state.expiresAt - Date.now();
  const margin = Math.min(REFRESH_MARGIN_MS, Math.max(0, left) / 4);
  refreshTimer = setTimeout(() => { refreshToken(true); }, Math.max(0, left - margin));
}

// Trades the refresh token for a new access token; one renewal at a time, whoever asks. Answers
// whether it renewed; when the identity provider refuses, signs out with its reason. While renewals
// are failing, a caller that met the node's 401 tries once more at once, but not within
// RENEWAL_FIRST_RETRY_MS of the last try (the retry timer, scheduled, always tries).
function refreshToken(scheduled) {
  if (!refreshing) {
    if (!scheduled && renewalFailing && Date.now() - renewalFailing.lastAt < RENEWAL_FIRST_RETRY_MS) {
      return Promise.resolve(false);
    }
    refreshing = renew().finally(() => { refreshing = null; });
  }
  return refreshing;
}

async function renew() {
  const state = refreshState();
  if (!state) return false;
  const outcome = await askToRenew(state);
  if (refreshState() === null) return false; // signed out meanwhile
  if (outcome.answer) {
    // a provider that does not rotate refresh tokens answers without one: the old one stays good
    keepTokens(Object.assign({ refresh_token: state.refreshToken }, outcome.answer), state.tokenEndpoint, state.clientId);
    const wasFailing = renewalFailing !== null;
    renewalSettled(true);
    if (wasFailing && me === null) start(); // the page that met the 401 showed an error: sign in again
    return true;
  }
  if (outcome.refused) {
    signIn('Your sign-in with the identity provider ended and could not be renewed: ' + outcome.reason + '. Sign in again.');
    return false;
  }
  renewalFailed(state, outcome.reason);
  return false;
}

// Asks the token endpoint once. Answers { answer } with the new tokens; { refused, reason } when the
// provider refuses the refresh token (400 or 401, as RFC 6749 section 5.2 answers invalid_grant and
// invalid_client); or { reason } when it could not be asked or failed (a network error, a 5xx,
// anything else), which is worth another try.
async function askToRenew(state) {
  let response;
  try {
    response = await fetch(state.tokenEndpoint, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: state.refreshToken, client_id: state.clientId }),
    });
  } catch (e) {
    return { reason: 'the identity provider could not be reached (' + e.message + ')' };
  }
  const answer = await response.json().catch(() => ({}));
  if (response.ok && answer.access_token) return { answer };
  const said = answer.error_description || answer.error;
  if (response.status === 400 || response.status === 401) return { refused: true, reason: said || 'HTTP ' + response.status };
  return { reason: 'the identity provider answered HTTP ' + response.status + (said ? ': ' + said : '') };
}

// A renewal that could not reach the provider: tried again after 1 s, 2 s, 4 s ... (at most
// RENEWAL_MAX_RETRY_MS apart, the last try when the access token expires) with a notice on the
// page; when the token has expired with no renewal, signs out.
function renewalFailed(state, reason) {
  const now = Date.now();
  const failing = renewalFailing || { attempts: 0, deadline: state.expiresAt || now + RENEWAL_GRACE_MS };
  failing.attempts += 1;
  failing.lastAt = now;
  failing.reason = reason;
  if (now >= failing.deadline) {
    signIn('Your sign-in expired and could not be renewed: ' + reason + '. Sign in again.');
    return;
  }
  renewalFailing = failing;
  const delay = Math.min(RENEWAL_FIRST_RETRY_MS * 2 ** (failing.attempts - 1), RENEWAL_MAX_RETRY_MS, failing.deadline - now);
  clearTimeout(refreshTimer);
  refreshTimer = setTimeout(() => { refreshToken(true); }, delay);
  const notice = document.getElementById('renewal');
  notice.title = 'Renewing the sign-in failed ' + failing.attempts + ' time(s): ' + reason
    + '. Next try at ' + new Date(now + delay).toLocaleTimeString() + '.';
  notice.hidden = false;
}

// The failing renewal came through (true) or ended with the sign-in (false): the notice goes, and
// whoever waited for it is told.
function renewalSettled(renewed) {
  renewalFailing = null;
  const notice = document.getElementById('renewal');
  if (notice) notice.hidden = true;
  const waiters = renewalWaiters;
  renewalWaiters = [];
  for (const resolve of waiters) resolve(renewed);
}

function whenRenewed() { return new Promise((resolve) => { renewalWaiters.push(resolve); }); }

function signOut() {
  signIn(null);
}

function renderSelf() {
  const self = document.getElementById('self');
  const parts = [];
  if (me && me.authentication === 'required') {
    parts.push(el('span', { id: 'who', text: me.name + ' (' + me.role + ')' }), ' ',
      el('button', { class: 'secondary', id: 'sign-out', onclick: signOut }, 'Sign out'));
  }
  self.replaceChildren(...parts);
  if (me && self.dataset.version) self.prepend(self.dataset.version + (parts.length ? ' · ' : ''));
}

// Learns who is signed in (401: asks for a key), then shows the page the address names.
async function start() {
  let refused = null;
  try { refused = await finishSignIn(); } catch (error) { refused = error.message; }
  if (refused) { signIn(refused); return; }
  scheduleRefresh(); // a reloaded tab keeps renewing the token it holds
  try {
    me = await api('/me');
  } catch (error) {
    if (error.status !== 401) main.replaceChildren(el('p', { class: 'error', text: error.message }));
    return;
  }
  api('/version').then((v) => { document.getElementById('self').dataset.version = 'node ' + v.nodeId + ' · ' + v.version; renderSelf(); }).catch(() => {});
  renderSelf();
  route();
}

// --- runs ------------------------------------------------------------------------------------

function filtersFrom(params) {
  const query = new URLSearchParams();
  for (const [key, value] of params) if (value !== '') query.append(key, value);
  return query;
}

async function runsView(params) {
  const route = currentRoute;
  const flows = await api('/flows').catch(() => ({ flows: [] }));
  const chosen = new Set((params.get('status') || '').split(',').filter(Boolean));
  const form = el('form', { class: 'filters', 'aria-label': 'Filter runs' },
    el('fieldset', {}, el('legend', { text: 'Status' }),
      STATUSES.map((s) => el('label', {}, el('input', { type: 'checkbox', name: 'status', value: s, checked: chosen.has(s) }), s))),
    el('label', {}, 'Flow', el('select', { name: 'flow' }, el('option', { value: '', text: 'any' }),
      flows.flows.map((f) => el('option', { value: f.name, text: f.name, selected: params.get('flow') === f.name })))),
    el('label', {}, 'Derived state', el('select', { name: 'state' }, el('option', { value: '', text: 'any' }),
      STATES.map((s) => el('option', { value: s, text: s, selected: params.get('state') === s })))),
    el('label', {}, 'Owner node', el('input', { name: 'node', value: params.get('node') || '' })),
    el('label', {}, 'Created from', el('input', { name: 'createdFrom', placeholder: '2026-01-01T00:00:00Z', value: params.get('createdFrom') || '' })),
    el('label', {}, 'Created before', el('input', { name: 'createdTo', value: params.get('createdTo') || '' })),
    el('label', {}, 'Input contains (JSON)', el('input', { name: 'input', placeholder: '{"orderId": "o-1"}', value: params.get('input') || '' })),
    el('label', {}, 'Output contains (JSON)', el('input', { name: 'output', value: params.get('output') || '' })),
    el('label', { title: 'A JSON path predicate: $.a.b[0] OP literal (== != < <= > >=) or exists($.a.b)' }, 'Input path (JSON path)',
      el('input', { name: 'inputPath', placeholder: '$.customer.tier == "gold"', value: params.get('inputPath') || '' })),
    el('label', { title: 'A JSON path predicate: $.a.b[0] OP literal (== != < <= > >=) or exists($.a.b)' }, 'Output path (JSON path)',
      el('input', { name: 'outputPath', placeholder: 'exists($.receipt)', value: params.get('outputPath') || '' })),
    el('label', {}, 'Root run', el('input', { name: 'root', value: params.get('root') || '' })),
    el('label', {}, 'Parent run', el('input', { name: 'parent', value: params.get('parent') || '' })),
    el('label', {}, 'Idempotency key', el('input', { name: 'idempotencyKey', value: params.get('idempotencyKey') || '' })),
    el('label', {}, 'Trigger event source', el('input', { name: 'eventSource', placeholder: '/shop', value: params.get('eventSource') || '' })),
    el('label', {}, 'Trigger event id', el('input', { name: 'eventId', value: params.get('eventId') || '' })),
    el('button', { type: 'submit', id: 'apply-filters' }, 'Apply'));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const data = new FormData(form);
    const statuses = data.getAll('status');
    data.delete('status');
    const query = filtersFrom(data);
    if (statuses.length) query.set('status', statuses.join(','));
    location.hash = '#/runs?' + query.toString();
  });

  const counts = el('div', { class: 'counts', id: 'counts', 'aria-label': 'Runs per status' });
  const body = el('tbody', { id: 'runs-body' });
  const pager = el('div', { class: 'pager' });
  show(route, el('h1', { text: 'Runs' }), el('div', { class: 'card' }, form), counts,
    el('div', { class: 'card' }, el('table', { id: 'runs' },
      el('thead', {}, el('tr', {}, ['Run', 'Flow', 'Status', 'State', 'Owner', 'Created', 'Updated']
        .map((h, i) => el('th', { text: h, class: i >= 5 ? 'hide-narrow' : null })))), body), pager));

  const query = new URLSearchParams(params);
  const cursors = [];
  async function load(cursor) {
    const pageQuery = new URLSearchParams(query);
    pageQuery.set('limit', String(PAGE));
    if (cursor) pageQuery.set('cursor', cursor);
    try {
      const page = await api('/runs?' + pageQuery.toString());
      body.replaceChildren(...page.runs.map(runRow));
      if (!page.runs.length) body.append(el('tr', {}, el('td', { colspan: 7, class: 'muted', text: 'No runs match.' })));
      pager.replaceChildren(
        el('button', { class: 'secondary', disabled: !cursors.length, onclick: () => { cursors.pop(); load(cursors[cursors.length - 1]); } }, 'First page'),
        el('button', { class: 'secondary', id: 'next-page', disabled: !page.next, onclick: () => { cursors.push(page.next); load(page.next); } }, 'Next page'));
    } catch (error) {
      body.replaceChildren(el('tr', {}, el('td', { colspan: 7, class: 'error', text: error.message })));
    }
  }
  async function loadCounts() {
    const all = await api('/run-counts').catch(() => null);
    if (!all) return;
    counts.replaceChildren(...STATUSES.map((s) => el('button', {
      class: 'secondary', 'data-status': s, onclick: () => { location.hash = '#/runs?status=' + s; },
    }, badge(s), el('b', { text: String(all.counts[s] || 0) }))));
  }
  await Promise.all([load(null), loadCounts()]);
  let countTimer = null;
  if (route !== currentRoute) return;
  openStream('', (run) => {
    const row = document.getElementById('run-' + run.id);
    if (row) row.replaceWith(runRow(run));
    else if (!cursors.length && matches(run, query)) body.prepend(runRow(run));
    clearTimeout(countTimer);
    countTimer = setTimeout(loadCounts, 300);
  });
}

// What the stream cannot filter by on the server side for this page is checked here.
function matches(run, query) {
  const statuses = (query.get('status') || '').split(',').filter(Boolean);
  if (statuses.length && !statuses.includes(run.status)) return false;
  if (query.get('flow') && query.get('flow') !== run.flow) return false;
  if (query.get('node') && query.get('node') !== run.orchestratorId) return false;
  if (query.get('state') && query.get('state') !== run.state) return false;
  if (query.get('root') && query.get('root') !== run.rootRunId) return false;
  if (query.get('parent') && query.get('parent') !== run.parentRunId) return false;
  return ['input', 'output', 'inputPath', 'outputPath', 'createdFrom', 'createdTo', 'updatedFrom', 'updatedTo', 'idempotencyKey', 'eventSource', 'eventId']
    .every((key) => !query.get(key));
}

function runRow(run) {
  const open = () => { location.hash = '#/run/' + run.id; };
  return el('tr', { class: 'run-row', id: 'run-' + run.id, 'data-status': run.status, onclick: open },
    el('td', {}, el('a', { href: '#/run/' + run.id, text: shortId(run.id), title: run.id })),
    el('td', { text: run.flow }), el('td', {}, badge(run.status)), el('td', {}, stateBadge(run.state, run.waiting)),
    el('td', { text: run.orchestratorId || '' }),
    el('td', { class: 'hide-narrow', text: when(run.createdAt) }), el('td', { class: 'hide-narrow', text: when(run.updatedAt) }));
}

// --- one run ----------------------------------------------------------------------------------

async function runView(id) {
  const route = currentRoute;
  let run;
  try { run = await api('/runs/' + id); } catch (error) { show(route, el('p', { class: 'error', text: error.message })); return; }
  const flow = await api('/flows/' + encodeURIComponent(run.flow)).catch(() => null);
  const active = ['PENDING', 'RUNNING', 'WAITING'].includes(run.status);
  // A finished run's steps may still read WAITING: only an active run can be answered.
  const waitingApproval = active && (run.steps || []).find((s) => s.status === 'WAITING' && s.waitingFor === 'approval');
  // Commands the signed-in role may not give are not shown at all.
  const commands = [
    ['resume', 'Resume', run.status === 'FAILED' && run.recoverable, 'Only a FAILED, recoverable run can be resumed', 'runs.resume'],
    ['cancel', 'Cancel', active, 'Only a pending, running or waiting run can be cancelled', 'runs.cancel'],
    ['approve', 'Approve', !!waitingApproval, 'No step is waiting for an approval', 'runs.answer'],
    ['reject', 'Reject', !!waitingApproval, 'No step is waiting for an approval', 'runs.answer'],
  ].filter((command) => may(command[4]));
  const reason = el('input', { id: 'reason', 'aria-label': 'Reason (optional)', placeholder: 'reason (optional)' });
  const buttons = commands.map(([command, label, allowed, why]) => el('button', {
    id: 'cmd-' + command, class: command === 'cancel' || command === 'reject' ? 'secondary' : null,
    disabled: !allowed, title: allowed ? label + ' this run' : why,
    onclick: async (event) => {
      event.target.disabled = true;
      const body = { by: 'dashboard' };
      // the reason is journaled with the command and shown under Commands; an approval's is its comment
      if (command === 'approve' || command === 'reject') {
        body.step = waitingApproval.name;
        if (reason.value) body.comment = reason.value;
      } else if (reason.value) body.reason = reason.value;
      try { await api('/runs/' + id + '/' + command, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) }); }
      catch (error) { toast(error.message); }
      runView(id);
    },
  }, label));

  // Retry now, per step: only a step waiting to retry a failed attempt (the API answers 409 otherwise).
  const retryNowButton = (step) => {
    const allowed = active && step.status === 'RETRY_WAIT' && !!step.error;
    return el('button', {
      id: 'retry-now-' + step.name, class: 'secondary', 'data-step': step.name,
      disabled: !allowed,
      title: allowed ? 'Start attempt ' + (step.attempts + 1) + ' of step ' + step.name + ' now instead of at ' + when(step.retryAt)
        : 'Only a step waiting to retry a failed attempt can be retried now',
      onclick: async (event) => {
        event.stopPropagation();
        event.target.disabled = true;
        const body = { by: 'dashboard' };
        if (reason.value) body.reason = reason.value;
        try { await api('/runs/' + id + '/steps/' + encodeURIComponent(step.name) + '/retry-now', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) }); }
        catch (error) { toast(error.message); }
        runView(id);
      },
    }, 'Retry now');
  };

  show(route, 
    el('h1', {}, 'Run ', el('span', { text: run.id, id: 'run-id' }), ' ', el('span', { id: 'run-status' }, badge(run.status)), ' ', stateBadge(run.state, run.waiting)),
    buttons.length ? el('div', { class: 'actions' }, reason, buttons) : null,
    el('div', { class: 'grid2' },
      el('div', { class: 'card' }, el('dl', { class: 'facts' }, [
        ['Flow', run.flow], ['Status reason', run.statusReason], ['Owner', run.orchestratorId || '—'],
        ['Root', run.rootRunId], ['Parent', run.parentRunId || '—'], ['Created', when(run.createdAt)],
        ['Updated', when(run.updatedAt)], ['Wakes', when(run.wakeAt) || '—'], ['Idempotency key', run.idempotencyKey || '—'],
        ['Trigger', run.trigger ? el('a', { id: 'run-trigger', href: eventHash(run.trigger.source, run.trigger.id), text: run.trigger.type + ' · ' + run.trigger.id }) : '—'],
      ].flatMap(([k, v]) => [el('dt', { text: k }), el('dd', {}, v || '')]))),
      el('div', { class: 'card' }, el('h2', { text: 'Step graph' }), dag(flow, run.steps || []))),
    el('div', { class: 'card' }, el('h2', { text: 'Steps' }), stepsTable(run.steps || [], may('runs.resume') ? retryNowButton : null)),
    el('div', { class: 'grid2' },
      el('div', { class: 'card' }, el('h2', { text: 'Input' }), pretty(run.input)),
      el('div', { class: 'card' }, el('h2', { text: run.error ? 'Error' : 'Output' }), pretty(run.error || run.output))),
    el('div', { class: 'card' }, el('h2', { text: 'Commands' }), el('table', { id: 'commands' },
      el('thead', {}, el('tr', {}, ['Command', 'By', 'Via', 'Reason', 'When'].map((h) => el('th', { text: h })))),
      el('tbody', {}, (run.commands || []).map((c) => el('tr', { 'data-command': c.command },
        el('td', { text: c.command }), el('td', { text: c.by }), el('td', { text: c.via }),
        el('td', { class: 'wrap', text: c.reason || '' }), el('td', { text: when(c.at) })))))),
    el('div', { class: 'card' }, el('h2', { text: 'Ownership history' }), el('table', { id: 'ownership' },
      el('thead', {}, el('tr', {}, ['Node', 'Token', 'Previous', 'Reason', 'When'].map((h) => el('th', { text: h })))),
      el('tbody', {}, (run.ownership || []).map((c) => el('tr', {},
        el('td', { text: c.node }), el('td', { text: String(c.token) }), el('td', { text: c.previousNode || '—' }),
        el('td', { text: c.reason }), el('td', { text: when(c.at) }))))),
    ),
    journalCard(id));

  if (route !== currentRoute) return;
  openStream('root=' + encodeURIComponent(run.rootRunId), (changed) => {
    // Only a newer state than the one shown: a snapshot the page already has (the stream sends the
    // runs changed in the last seconds to a new connection) must not rebuild it under the reader.
    if (changed.id === id && newer(changed, run)) runView(id);
  });
}

function newer(changed, shown) {
  const a = Date.parse(changed.updatedAt);
  const b = Date.parse(shown.updatedAt);
  return a > b || (a === b && changed.status !== shown.status);
}

// --- one event --------------------------------------------------------------------------------

function eventHash(source, id) {
  return '#/event?' + new URLSearchParams({ source, id }).toString();
}

async function eventView(seq, params) {
  const route = currentRoute;
  const path = seq ? '/events/' + encodeURIComponent(seq)
    : '/events?' + new URLSearchParams({ source: params.get('source') || '', id: params.get('id') || '' }).toString();
  let event;
  try { event = await api(path); } catch (error) { show(route, el('p', { class: 'error', text: error.message })); return; }
  show(route,
    el('h1', {}, 'Event ', el('span', { id: 'event-id', text: event.id })),
    el('div', { class: 'card' }, el('dl', { class: 'facts' }, [
      ['Type', event.type], ['Source', event.source], ['Sequence', String(event.seq)], ['Received', when(event.receivedAt)],
      ['Triggered', when(event.triggeredAt) || '—'], ['Time', event.envelope && event.envelope.time ? when(event.envelope.time) : '—'],
    ].flatMap(([k, v]) => [el('dt', { text: k }), el('dd', { text: v || '' })]))),
    el('div', { class: 'card' }, el('h2', { text: 'Runs it started' }),
      el('p', {}, el('a', { id: 'event-runs-list', href: '#/runs?' + new URLSearchParams({ eventSource: event.source, eventId: event.id }).toString() },
        'All runs this event started, in the runs list')),
      el('table', { id: 'event-runs' },
      el('thead', {}, el('tr', {}, ['Run', 'Flow', 'Key'].map((h) => el('th', { text: h })))),
      el('tbody', {}, (event.runs || []).map((r) => el('tr', {},
        el('td', {}, el('a', { href: '#/run/' + r.runId, text: r.runId })), el('td', { text: r.flow }), el('td', { text: r.key })))))),
    el('div', { class: 'card' }, el('h2', { text: 'Data' }), pretty(event.envelope ? event.envelope.data : null)));
}

// The run's steps; with an action (a step → its button, such as Retry now), a column of them.
function stepsTable(steps, action) {
  const headers = ['Step', 'Status', 'Attempts', 'Started', 'Finished', 'Duration', 'Next try', 'Waiting for'].concat(action ? ['Action'] : []);
  return el('table', { id: 'steps' },
    el('thead', {}, el('tr', {}, headers.map((h) => el('th', { text: h })))),
    el('tbody', {}, steps.map((s) => el('tr', { 'data-step': s.name },
      el('td', { text: s.name }), el('td', {}, badge(s.status)), el('td', { text: String(s.attempts) }),
      el('td', { text: when(s.startedAt) }), el('td', { text: when(s.finishedAt) }),
      el('td', { class: 'duration', text: stepDuration(s), ...liveSince(s, true) }),
      el('td', { text: when(s.retryAt) }), el('td', { text: s.waitingFor ? s.waitingFor + (s.dueAt ? ' until ' + when(s.dueAt) : '') : '' }),
      action ? el('td', {}, action(s)) : null))));
}

// The flow's steps in layers by their dependencies, each coloured by its state in this run.
function dag(flow, steps) {
  const definition = flow && flow.definition && flow.definition.steps;
  if (!definition || !definition.length) return el('p', { class: 'muted', text: 'No graph: the flow is not known here.' });
  const state = Object.fromEntries(steps.map((s) => [s.name, s.status]));
  const duration = Object.fromEntries(steps.map((s) => [s.name, stepDuration(s)]));
  const byStep = Object.fromEntries(steps.map((s) => [s.name, s]));
  const layer = {};
  const byName = Object.fromEntries(definition.map((s) => [s.name, s]));
  const depth = (name, seen = new Set()) => {
    if (layer[name] !== undefined) return layer[name];
    if (seen.has(name)) return 0;
    seen.add(name);
    const needs = (byName[name] && byName[name].needs) || [];
    layer[name] = needs.length ? 1 + Math.max(...needs.map((n) => depth(n, seen))) : 0;
    return layer[name];
  };
  definition.forEach((s) => depth(s.name));
  const columns = [];
  definition.forEach((s) => { (columns[layer[s.name]] = columns[layer[s.name]] || []).push(s.name); });
  const timed = Object.values(duration).some(Boolean); // a second line in each box for the duration
  const w = 130, h = timed ? 46 : 34, gx = 50, gy = 16;
  const pos = {};
  columns.forEach((names, x) => names.forEach((name, y) => { pos[name] = { x: 10 + x * (w + gx), y: 10 + y * (h + gy) }; }));
  const width = 20 + columns.length * (w + gx) - gx;
  const height = 20 + Math.max(...columns.map((c) => c.length)) * (h + gy) - gy;
  const svg = svgEl('svg', { class: 'dag', viewBox: `0 0 ${width} ${height}`, width, height, role: 'img', 'aria-label': 'Step graph' });
  definition.forEach((s) => (s.needs || []).forEach((n) => {
    if (!pos[n]) return;
    svg.append(svgEl('line', { x1: pos[n].x + w, y1: pos[n].y + h / 2, x2: pos[s.name].x, y2: pos[s.name].y + h / 2 }));
  }));
  definition.forEach((s) => {
    const g = svgEl('g', { 'data-step': s.name });
    // the full name, state and duration on hover (the label has room for a short name only)
    const title = svgEl('title', {});
    title.textContent = [s.name, state[s.name] && state[s.name].toLowerCase(), duration[s.name]].filter(Boolean).join(' · ');
    g.append(title);
    g.append(svgEl('rect', { x: pos[s.name].x, y: pos[s.name].y, width: w, height: h, class: 'f-' + (state[s.name] || 'none') }));
    const label = svgEl('text', { x: pos[s.name].x + 8, y: pos[s.name].y + (timed ? 19 : 21) });
    label.textContent = s.name + (state[s.name] ? ' · ' + state[s.name].toLowerCase() : '');
    g.append(label);
    if (duration[s.name]) {
      const time = svgEl('text', { x: pos[s.name].x + 8, y: pos[s.name].y + 37, class: 'duration', ...liveSince(byStep[s.name], false) });
      time.textContent = duration[s.name].replace(/, .*$/, ''); // the tooltip says running or waiting
      g.append(time);
    }
    svg.append(g);
  });
  return svg;
}

// The journal as a timeline in its own scrolling box, fetched a page at a time as the person
// scrolls. At most JOURNAL_WINDOW pages are in the document: a page scrolled past is replaced by an
// empty row of its height and fetched again when scrolled back to, so a run with 100,000 entries
// opens with its first page and the tab stays as light however far one scrolls.
const JOURNAL_PAGE = 200;
const JOURNAL_WINDOW = 3;
const JOURNAL_MARGIN_PX = 400; // fetch when this close to either end of what is shown

function journalCard(id) {
  const cell = el('td', { colspan: 4 });
  const spacer = el('tr', { class: 'journal-spacer', 'aria-hidden': 'true' }, cell);
  const body = el('tbody', {}, spacer);
  const view = el('div', { class: 'journal-view', id: 'journal-view', tabindex: 0, role: 'region', 'aria-label': 'Journal entries' },
    el('table', { id: 'journal' }, el('thead', {}, el('tr', {}, ['Seq', 'When', 'Event', 'Detail'].map((h) => el('th', { text: h })))), body));
  const shown = [];  // the pages in the document, in order: { after, next, rows }
  const above = [];  // the pages scrolled past above them: { after, height }
  let loading = false;

  const rowsOf = (page) => page.entries.map((entry) => el('tr', { 'data-seq': entry.seq },
    el('td', { text: String(entry.seq) }), el('td', { text: when(entry.timestamp) }),
    el('td', { text: entry.event.type }), el('td', { class: 'wrap' }, el('code', { text: JSON.stringify(entry.event) }))));
  const spaceAbove = () => above.reduce((sum, page) => sum + page.height, 0);
  const setSpace = () => { cell.style.height = spaceAbove() + 'px'; spacer.hidden = above.length === 0; };
  const atEnd = () => shown.length > 0 && shown[shown.length - 1].next === null;

  async function fetched(after) {
    return api('/runs/' + id + '/journal?limit=' + JOURNAL_PAGE + '&after=' + after).catch((e) => { toast(e.message); return null; });
  }
  async function down() {
    const after = shown.length ? shown[shown.length - 1].next : 0;
    const page = await fetched(after);
    if (!page) return false;
    const rows = rowsOf(page);
    body.append(...rows);
    shown.push({ after, next: page.next, rows });
    if (shown.length > JOURNAL_WINDOW) {
      const first = shown.shift();
      const height = first.rows.reduce((sum, row) => sum + row.getBoundingClientRect().height, 0);
      first.rows.forEach((row) => row.remove());
      above.push({ after: first.after, height });
      setSpace();
    }
    return true;
  }
  async function up() {
    const dropped = above.pop();
    const page = await fetched(dropped.after);
    if (!page) { above.push(dropped); return false; }
    const rows = rowsOf(page);
    spacer.after(...rows);
    setSpace();
    shown.unshift({ after: dropped.after, next: page.next, rows });
    if (shown.length > JOURNAL_WINDOW) shown.pop().rows.forEach((row) => row.remove());
    return true;
  }
  // One fetch at a time, until what is in view is filled (a jump to either end takes several).
  async function fill() {
    if (loading || !view.isConnected) return;
    loading = true;
    try {
      for (;;) {
        let more = false;
        if (!atEnd() && view.scrollTop + view.clientHeight > view.scrollHeight - JOURNAL_MARGIN_PX) more = await down();
        else if (above.length && view.scrollTop < spaceAbove() + JOURNAL_MARGIN_PX) more = await up();
        if (!more) return;
      }
    } finally { loading = false; }
  }
  view.addEventListener('scroll', fill);
  down().then(fill);
  return el('div', { class: 'card' }, el('h2', { text: 'Journal' }), view);
}

// --- flows ------------------------------------------------------------------------------------

async function flowsView() {
  const route = currentRoute;
  const flows = await api('/flows');
  show(route, el('h1', { text: 'Flows' }), el('div', { class: 'card' }, el('table', { id: 'flows' },
    el('thead', {}, el('tr', {}, ['Flow', 'Hash', 'Created'].map((h) => el('th', { text: h })))),
    el('tbody', {}, flows.flows.map((f) => el('tr', {},
      el('td', {}, el('a', { href: '#/flow/' + encodeURIComponent(f.name), text: f.name })),
      el('td', { text: shortId(f.hash) }), el('td', { text: when(f.createdAt) })))))));
}

// The YAML of a flow in an editor: checked by the API (every problem with its line) as it is typed,
// before anyone applies it.
function flowEditor(flow) {
  const editor = el('textarea', { id: 'flow-yaml', class: 'yaml', 'aria-label': 'Flow YAML', spellcheck: 'false', rows: 16 });
  editor.value = flow.yaml || '';
  const problems = el('ul', { id: 'flow-problems', class: 'problems', 'aria-live': 'polite' },
    el('li', { class: 'muted', text: 'Problems show here as you type.' }));
  let checked = 0;
  async function check() {
    const asked = ++checked;
    try {
      const answer = await api('/flows/validate', { method: 'POST', headers: { 'Content-Type': 'application/yaml' }, body: editor.value });
      if (asked !== checked) return;
      problems.dataset.valid = String(answer.valid);
      problems.replaceChildren(...(answer.valid ? [el('li', { class: 'ok', text: 'Valid' + (answer.name ? ': flow ' + answer.name : '') })]
        : answer.problems.map((p) => el('li', { class: 'error', 'data-line': String(p.line) },
          el('b', { text: 'line ' + p.line + ', column ' + p.column + ': ' }), (p.field ? p.field + ': ' : '') + p.message))));
    } catch (error) { problems.replaceChildren(el('li', { class: 'error', text: error.message })); }
  }
  let timer = null;
  editor.addEventListener('input', () => { clearTimeout(timer); timer = setTimeout(check, 400); });
  const apply = el('button', { id: 'apply-flow', onclick: async () => {
    await check();
    if (problems.dataset.valid !== 'true') { toast('The flow has problems: see the list beside the YAML'); return; }
    try {
      const applied = await api('/flows', { method: 'POST', headers: { 'Content-Type': 'application/yaml' }, body: editor.value });
      const target = '#/flow/' + encodeURIComponent(applied.name);
      if (location.hash === target) route(); else location.hash = target;
    } catch (error) { toast(error.message); }
  } }, 'Apply');
  // The problems beside the editor (under it on a phone), held in view while the YAML scrolls by:
  // below the editor they were below the fold of a laptop's screen.
  return el('div', { class: 'card editor-card' }, el('h2', { text: 'YAML' }),
    el('div', { class: 'editor-grid' },
      el('div', {}, editor,
        el('div', { class: 'actions' }, el('button', { id: 'validate-flow', class: 'secondary', onclick: check }, 'Check'), may('flows.write') ? apply : null)),
      el('aside', { class: 'problems-panel', 'aria-label': 'Problems' }, el('h3', { text: 'Problems' }), problems)));
}

async function flowView(name, params) {
  const route = currentRoute;
  const version = params && params.get('version');
  const flow = await api('/flows/' + encodeURIComponent(name) + (version ? '?version=' + encodeURIComponent(version) : ''));
  const input = el('textarea', { id: 'start-input', 'aria-label': 'Input (JSON)', text: '{}' });
  const start = el('button', { id: 'start-run', onclick: async () => {
    let parsed;
    try { parsed = JSON.parse(input.value || '{}'); } catch (e) { toast('The input is not valid JSON: ' + e.message); return; }
    try {
      const run = await api('/runs', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ flow: name, input: parsed }) });
      location.hash = '#/run/' + run.id;
    } catch (error) { toast(error.message); }
  } }, 'Start a run');
  show(route, el('h1', { text: 'Flow ' + name }),
    el('div', { class: 'grid2' },
      el('div', { class: 'card' }, el('h2', { text: 'Graph' }), dag(flow, [])),
      may('runs.submit') ? el('div', { class: 'card' }, el('h2', { text: 'Start a run' }), input, el('div', { class: 'actions' }, start)) : null),
    flowEditor(flow),
    el('div', { class: 'card' }, el('h2', { text: 'Versions' }), el('table', { id: 'flow-versions' },
      el('tbody', {}, flow.versions.map((v, i) => el('tr', { 'data-hash': v.hash, class: v.hash === flow.hash ? 'shown' : null },
        el('td', {}, v.hash === flow.hash ? el('b', { text: v.hash + ' (shown)' })
          : el('a', { href: '#/flow/' + encodeURIComponent(name) + (i === 0 ? '' : '?version=' + encodeURIComponent(v.hash)), text: v.hash })),
        el('td', { text: when(v.createdAt) })))))),
    el('div', { class: 'card' }, el('h2', { text: 'Definition (JSON)' }), pretty(flow.definition)));
}

// --- cluster ----------------------------------------------------------------------------------

// Time left on a node's lease when the node answered (its clock, not the browser's).
function leaseEnds(n) {
  if (n.leaseRemainingMillis === null || n.leaseRemainingMillis === undefined) return n.leaseState === 'GONE' ? 'ended' : 'unknown';
  return 'in ' + (Math.max(0, n.leaseRemainingMillis) / 1000).toFixed(1) + ' s';
}

function nodesTable(cluster) {
  return el('table', { id: 'nodes' },
    el('thead', {}, el('tr', {}, ['Node', 'Address', 'Lease', 'Lease ends', 'Draining', 'Running runs', 'Claims', 'Fenced-out writes', 'Started'].map((h) => el('th', { text: h })))),
    el('tbody', {}, cluster.nodes.map((n) => el('tr', { 'data-node': n.id },
      el('td', { text: n.id + (n.self ? ' (this node)' : '') }), el('td', { text: n.address }),
      el('td', { class: 'lease-state', text: n.leaseState }),
      el('td', { class: 'lease-ends', title: n.leaseExpiresAt ? when(n.leaseExpiresAt) : 'unknown', text: leaseEnds(n) }),
      el('td', { text: n.draining ? 'yes' : 'no' }),
      el('td', { text: String(n.ownedRuns) }), el('td', { class: 'claims', text: String(n.claims) }),
      el('td', { class: 'fenced-out' + (n.fencedOutWrites > 0 ? ' error' : ''), text: String(n.fencedOutWrites) }),
      el('td', { text: when(n.startedAt) })))));
}

// Leases change without any run changing (a node that stopped renewing): the nodes are read again
// every few seconds while the page is open.
async function refreshNodes(route) {
  const cluster = await api('/cluster');
  const table = document.getElementById('nodes');
  if (route === currentRoute && table) table.replaceWith(nodesTable(cluster));
}

async function clusterView() {
  const route = currentRoute;
  const [cluster, recovery] = await Promise.all([api('/cluster'), api('/recovery/incomplete?limit=50')]);
  show(route, el('h1', { text: 'Cluster' }),
    el('div', { class: 'card' }, nodesTable(cluster)),
    el('h2', { text: 'Incomplete runs' }),
    el('div', { class: 'card' }, el('table', { id: 'incomplete' },
      el('thead', {}, el('tr', {}, ['Run', 'Status', 'Owner', 'Owner alive', 'Set aside'].map((h) => el('th', { text: h })))),
      el('tbody', {}, recovery.runs.map((r) => el('tr', {},
        el('td', {}, el('a', { href: '#/run/' + r.id, text: shortId(r.id) })),
        el('td', {}, badge(r.status)), el('td', { text: r.owner || '' }),
        el('td', { text: r.ownerAlive ? 'yes' : 'no' }),
        el('td', { class: 'wrap', text: r.setAside ? (r.setAside.reason || 'yes') : '' })))))));
  if (route !== currentRoute) return;
  openStream('', () => { clearTimeout(clusterView.timer); clusterView.timer = setTimeout(clusterView, 500); });
  clearInterval(clusterView.leases);
  clusterView.leases = setInterval(() => refreshNodes(route).catch(() => {}), 2000);
}

// --- routing ----------------------------------------------------------------------------------

async function route() {
  closeStream();
  clearTimeout(clusterView.timer);
  clearInterval(clusterView.leases);
  currentRoute++;
  const hash = location.hash || '#/runs';
  const [path, query] = hash.slice(1).split('?');
  const parts = path.split('/').filter(Boolean);
  document.querySelectorAll('nav a').forEach((a) => a.classList.toggle('active', a.id === 'nav-' + (parts[0] === 'run' || parts[0] === 'event' ? 'runs' : parts[0] === 'flow' ? 'flows' : parts[0])));
  try {
    if (parts[0] === 'run' && parts[1]) await runView(parts[1]);
    else if (parts[0] === 'flows') await flowsView();
    else if (parts[0] === 'flow' && parts[1]) await flowView(decodeURIComponent(parts[1]), new URLSearchParams(query || ''));
    else if (parts[0] === 'cluster') await clusterView();
    else if (parts[0] === 'event') await eventView(parts[1], new URLSearchParams(query || ''));
    else await runsView(new URLSearchParams(query || ''));
  } catch (error) {
    if (error.status !== 401) main.replaceChildren(el('p', { class: 'error', text: error.message }));
  }
}

window.addEventListener('hashchange', () => { if (me) route(); });
start();
