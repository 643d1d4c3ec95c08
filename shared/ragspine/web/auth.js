// Sign-in where the deployment asks for it (on AWS: the company's identity provider, OpenID Connect
// authorization code with PKCE, a public client); the local service says there is no login.
const TOKEN = "ragspine.token";
const PENDING = "ragspine.signin";

function base64url(bytes) {
  return btoa(String.fromCharCode(...new Uint8Array(bytes))).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function held() {
  const token = JSON.parse(sessionStorage.getItem(TOKEN) || "null");
  return token && token.expires > Date.now() + 30_000 ? token : null;
}

// Redeem the code the provider sent back with, for a token kept in this tab only.
async function redeem(login, params) {
  const pending = JSON.parse(sessionStorage.getItem(PENDING) || "null");
  sessionStorage.removeItem(PENDING);
  history.replaceState(null, "", location.pathname);
  if (!pending || pending.state !== params.get("state")) throw new Error("the sign-in answer does not match this tab's request: sign in again");
  const body = new URLSearchParams({ grant_type: "authorization_code", code: params.get("code"),
    client_id: login.clientId, redirect_uri: login.redirectUri, code_verifier: pending.verifier });
  const response = await fetch(login.tokenUrl, { method: "POST", body,
    headers: { "Content-Type": "application/x-www-form-urlencoded" } });
  if (!response.ok) throw new Error(`the identity provider refused the sign-in (${response.status})`);
  const tokens = await response.json();
  sessionStorage.setItem(TOKEN, JSON.stringify({ token: tokens.access_token || tokens.id_token,
    expires: Date.now() + 1000 * (tokens.expires_in || 3600) }));
  // The provider returns to the page's one redirect URI (/): go back to the page that asked to sign in.
  if (pending.back && pending.back !== location.pathname && pending.back.startsWith("/")) {
    location.replace(pending.back);
    await new Promise(() => {});
  }
}

// Send the reader to the identity provider; the page comes back to itself with a code.
async function leaveToSignIn(login) {
  const verifier = base64url(crypto.getRandomValues(new Uint8Array(32)));
  const state = base64url(crypto.getRandomValues(new Uint8Array(16)));
  const challenge = base64url(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier)));
  sessionStorage.setItem(PENDING, JSON.stringify({ verifier, state, back: location.pathname }));
  const url = new URL(login.authorizeUrl);
  url.search = new URLSearchParams({ response_type: "code", client_id: login.clientId, redirect_uri: login.redirectUri,
    scope: login.scope, state, code_challenge: challenge, code_challenge_method: "S256" }).toString();
  location.assign(url.toString());
  await new Promise(() => {});  // the page is leaving; nothing after this runs
}

// Before the first call: a token when the deployment needs one (redeemed or fetched), nothing locally.
// Returns the deployment's page config ({login, stream}).
export async function signIn() {
  const response = await fetch("/ui/config.json", { cache: "no-cache" });
  const config = response.ok ? await response.json() : {};
  const login = config.login;
  if (!login) return config;
  const params = new URLSearchParams(location.search);
  if (params.has("code")) await redeem(login, params);
  else if (!held()) await leaveToSignIn(login);
  return config;
}

// The Authorization header of the API calls (none without a token).
export function authHeaders() {
  const token = held();
  return token ? { Authorization: `Bearer ${token.token}` } : {};
}
