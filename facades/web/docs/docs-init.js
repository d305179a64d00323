/*
 * Starts Swagger UI on /v1/openapi.json (served by this instance). No inline script: the
 * page's CSP allows only same-origin scripts. "Try it out" sends the key typed into the
 * Authorize dialog; persistAuthorization stays false, so the key lives only in this
 * page's memory and is gone on reload (never in localStorage).
 */
window.addEventListener('DOMContentLoaded', () => {
  window.ui = window.SwaggerUIBundle({
    url: '/v1/openapi.json',
    dom_id: '#swagger-ui',
    deepLinking: true,
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
    layout: 'BaseLayout',
  });
});
