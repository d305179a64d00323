/*
 * Starts Swagger UI on /v1/openapi.json (served by this instance). No inline script: the
 * page's CSP allows only same-origin scripts. "Try it out" sends the key typed into the
 * Authorize dialog; persistAuthorization stays false, so the key lives only in this
 * page's memory and is gone on reload (never in localStorage).
 */
/**
 * Swagger UI's servers select sits in an empty label, so it has no accessible name; this
 * names it after the "Servers" title beside it.
 */
const NamedServersSelect = () => ({
  wrapComponents: {
    Servers: (Original, system) => function NamedServers(props) {
      const { React } = system;
      const box = React.useRef(null);
      React.useEffect(() => { box.current?.querySelector('select')?.setAttribute('aria-label', 'Servers'); });
      return React.createElement('div', { ref: box, className: 'servers-box' }, React.createElement(Original, props));
    },
  },
});

/**
 * An enum parameter (`include=supply`, say) is drawn as a select with no accessible name:
 * each is named after its parameter, whenever Swagger UI draws one.
 */
function nameParameterSelects(root) {
  for (const select of root.querySelectorAll('.parameters-col_description select:not([aria-label])')) {
    const name = select.closest('tr')?.querySelector('.parameter__name')?.firstChild?.textContent?.trim();
    if (name) select.setAttribute('aria-label', name);
  }
}

window.addEventListener('DOMContentLoaded', () => {
  const root = document.getElementById('swagger-ui');
  new MutationObserver(() => nameParameterSelects(root)).observe(root, { childList: true, subtree: true });
  window.ui = window.SwaggerUIBundle({
    url: '/v1/openapi.json',
    dom_id: '#swagger-ui',
    // Off: a deep link is an anchor inside each operation's expand button, and a link inside
    // a button is lost to keyboard and screen-reader users (axe: nested-interactive).
    deepLinking: false,
    persistAuthorization: false,
    tryItOutEnabled: false,
    displayRequestDuration: true,
    docExpansion: 'list',
    defaultModelsExpandDepth: 0,
    filter: true,
    // No badge from validator.swagger.io: the page talks to this origin only.
    validatorUrl: null,
    withCredentials: false,
    presets: [window.SwaggerUIBundle.presets.apis],
    plugins: [NamedServersSelect],
    layout: 'BaseLayout',
  });
});
