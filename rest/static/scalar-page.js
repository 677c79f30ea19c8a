// Starts Scalar's API reference on /schema (rest/api_reference.py): no inline script, so that
// the page works under its Content-Security-Policy.
const mount = document.getElementById("api-reference-page");
Scalar.createApiReference(mount, JSON.parse(mount.dataset.configuration));
