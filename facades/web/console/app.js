/**
 * Console entry: reads a sign-in link's fragment (#login=… or #error=…) and removes it
 * from the address bar at once, keeps the header in step with the session, and routes
 * the fragment (#keys, #usage, #lookups/…) to a view. Views render into <main>.
 */
import { announce, h, replace } from './dom.js';
import { currentAccount, onSessionChange, signIn, signOut } from './session.js';
import { renderSignIn } from './signin.js';
import { renderKeys } from './keys.js';
import { renderUsage } from './usage.js';
import { renderLookups } from './lookups.js';

const VIEWS = { keys: renderKeys, usage: renderUsage, lookups: renderLookups };
const TITLES = { keys: 'API keys', usage: 'Usage', lookups: 'Lookups' };
const main = document.getElementById('main');

/** Why the sign-in view is shown, as the message it leads with (null: a plain visit). */
let signInReason = null;
/** Bumped on every render so a slow view that resolves late does not draw over a newer one. */
let renderCount = 0;

function parseRoute() {
  const [name, sub] = location.hash.replace(/^#/, '').split('/');
  return { name: VIEWS[name] ? name : 'keys', sub: sub || null };
}

function updateChrome(account) {
  document.getElementById('account').hidden = !account;
  document.getElementById('nav').hidden = !account;
  document.getElementById('account-name').textContent = account ? account.name : '';
  document.getElementById('account-tier').textContent = account ? account.tier : '';
  const { name } = parseRoute();
  for (const link of document.querySelectorAll('#nav a[data-route]')) {
    if (account && link.dataset.route === name) link.setAttribute('aria-current', 'page');
    else link.removeAttribute('aria-current');
  }
}

async function render({ focus = true } = {}) {
  const token = ++renderCount;
  const account = currentAccount();
  updateChrome(account);
  if (!account) {
    document.title = 'Sign in · drugref console';
    renderSignIn(main, signInReason);
    return;
  }
  const route = parseRoute();
  document.title = `${TITLES[route.name]} · drugref console`;
  replace(main);
  await VIEWS[route.name](main, { sub: route.sub, isCurrent: () => token === renderCount });
  if (focus && token === renderCount) main.querySelector('h1')?.focus();
}

/** Takes `login=` / `error=` out of the fragment before anything else can read or log it. */
function takeFragmentParameter() {
  const params = new URLSearchParams(location.hash.replace(/^#/, ''));
  const login = params.get('login');
  const error = params.get('error');
  if (login === null && error === null) return null;
  history.replaceState(null, '', `${location.pathname}${location.search}`);
  return { login, error };
}

async function handleFragment() {
  const taken = takeFragmentParameter();
  if (!taken) return false;
  if (taken.error !== null) {
    signInReason = { kind: 'sso', code: taken.error };
    await render();
    return true;
  }
  replace(main, h('p', { class: 'loading' }, 'Signing you in…'));
  announce('Signing you in');
  try {
    await signIn(taken.login);
    signInReason = null;
    history.replaceState(null, '', `${location.pathname}${location.search}#keys`);
    await render();
  } catch (err) {
    signInReason = { kind: 'link', status: err.status, message: err.message };
    await render();
  }
  return true;
}

onSessionChange((session, reason) => {
  if (session) return;
  signInReason = reason === 'signed-out' ? { kind: 'signed-out' } : { kind: reason };
  void render();
});

document.getElementById('sign-out').addEventListener('click', () => { void signOut(); });

window.addEventListener('hashchange', async () => {
  if (await handleFragment()) return;
  await render();
});

if (!(await handleFragment())) await render({ focus: false });
