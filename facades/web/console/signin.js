/**
 * The sign-in view: how to get a one-time sign-in link from the CLI (first: it works for
 * every account), and single sign-on for accounts with an identity provider. Leads with why it is shown (a used link, a
 * failed SSO round trip, an ended session).
 */
import { h, notice, replace, announce } from './dom.js';

/** What an SSO failure code (the `#error=` fragment) means for the person signing in. */
const SSO_ERRORS = {
  sso_unavailable: 'Single sign-on is not set up for this account (or not on this server). Ask your administrator for a one-time sign-in link instead.',
  sso_not_enterprise: 'Single sign-on is part of the enterprise plan; this account is on another plan. Use a one-time sign-in link instead.',
  sso_state_invalid: 'The sign-in took too long or was started in another tab. Please start again.',
  sso_denied: 'Your identity provider did not let you in, or the sign-in was cancelled.',
  sso_not_allowed: 'Your identity provider signed you in, but your identity is not allowed to use this account.',
  sso_failed: 'Your identity provider could not complete the sign-in. Try again in a moment.',
};

function reasonNotice(reason) {
  if (!reason) return null;
  switch (reason.kind) {
    case 'sso':
      return notice('error', h('strong', {}, 'Single sign-on failed. '),
        SSO_ERRORS[reason.code] ?? 'Your identity provider did not complete the sign-in.',
        ' ', h('span', { class: 'muted' }, `(code: ${reason.code || 'unknown'})`));
    case 'link':
      if (reason.status === 401) {
        return notice('error', h('strong', {}, 'This sign-in link does not work any more. '),
          'Each link can be used once and only for a few minutes. Ask for a new one (see below).',
          reason.message ? h('span', { class: 'muted block' }, reason.message) : null);
      }
      return notice('error', h('strong', {}, 'Sign-in failed. '), reason.message ?? 'Please try again.');
    case 'signed-out':
      return notice('success', 'You are signed out.');
    case 'expired':
      return notice('warning', 'Your console session has ended. Sign in again to continue.');
    case 'unauthorized':
      return notice('warning', 'Your console session is no longer valid. Sign in again to continue.');
    default:
      return null;
  }
}

function ssoForm() {
  const input = h('input', { id: 'sso-account', name: 'account', type: 'text', required: true, autocomplete: 'organization', spellcheck: 'false', maxlength: '200' });
  const error = h('p', { class: 'field-error', id: 'sso-account-error', hidden: true });
  const form = h('form', { class: 'stack', novalidate: true, onsubmit: (event) => {
    event.preventDefault();
    const account = input.value.trim();
    if (!account) {
      error.textContent = 'Enter your account name.';
      error.hidden = false;
      input.setAttribute('aria-invalid', 'true');
      input.setAttribute('aria-describedby', 'sso-account-hint sso-account-error');
      input.focus();
      return;
    }
    announce('Going to your identity provider');
    // A navigation, not a form submission: the server redirects on to the identity provider.
    location.assign(`/console/api/sso/start?account=${encodeURIComponent(account)}`);
  } },
  h('div', { class: 'field' },
    h('label', { for: 'sso-account' }, 'Account name'),
    input,
    h('p', { class: 'hint', id: 'sso-account-hint' }, 'The name of your organisation’s drugref account, for example “acme-health”.'),
    error),
  h('button', { type: 'submit', class: 'button button-primary' }, 'Sign in with your company (SSO)'));
  input.setAttribute('aria-describedby', 'sso-account-hint');
  return form;
}

/** Renders the sign-in view into `main`. */
export function renderSignIn(main, reason) {
  replace(main,
    h('section', { class: 'signin' },
      h('div', { class: 'page-header' },
        h('h1', { tabindex: '-1' }, 'Sign in to the drugref console'),
        h('p', { class: 'lead' }, 'Manage your API keys, watch your usage and try lookups against your own quota.')),
      reasonNotice(reason),
      // The one-time link first: every account can use it; single sign-on is for enterprise accounts only.
      h('div', { class: 'signin-grid' },
        h('div', { class: 'card card-primary' },
          h('h2', {}, 'One-time sign-in link'),
          h('p', {}, 'Where drugref is installed, run:'),
          h('pre', { class: 'command' }, h('code', {}, 'npx drugref console login --account <name>')),
          h('p', { class: 'muted' }, 'Open the link it prints in this browser. A link works once and only for a few minutes; your session stays in this tab only.')),
        h('div', { class: 'card' },
          h('h2', {}, 'Single sign-on'),
          h('p', { class: 'muted' }, 'For enterprise accounts that sign in through their company’s identity provider.'),
          ssoForm()))));
  if (reason) main.querySelector('h1')?.focus();
}
