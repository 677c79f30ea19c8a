// Starts Swagger UI on /schema/swagger (rest/api_reference.py): no inline script, so that the
// page works under its Content-Security-Policy.
const container = document.getElementById("swagger-container");
SwaggerUIBundle({
  url: container.dataset.url,
  dom_id: "#swagger-container",
  deepLinking: true,
  showExtensions: true,
  showCommonExtensions: true,
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIBundle.SwaggerUIStandalonePreset],
});
