// Starts GraphiQL on GET /graphql (rest/templates/graphiql.html): no inline script, so that the
// page works under its Content-Security-Policy.
const EXAMPLE_QUERY = `# GraphiQL for the Event Ticketing API.
#
# Put your credential in the Headers tab below, for example:
#   {"Authorization": "Bearer tk_live_..."}
# then run a query with Ctrl-Enter (or the play button):

query Viewer {
  viewer { email organization }
}
`;
const parameters = {};
for (const entry of window.location.search.slice(1).split("&")) {
  const eq = entry.indexOf("=");
  if (eq >= 0) {
    parameters[decodeURIComponent(entry.slice(0, eq))] = decodeURIComponent(entry.slice(eq + 1));
  }
}

function updateURL(data) {
  Object.assign(parameters, data);
  const search = Object.keys(parameters)
    .filter((key) => Boolean(parameters[key]))
    .map((key) => encodeURIComponent(key) + "=" + encodeURIComponent(parameters[key]))
    .join("&");
  history.replaceState(null, null, "?" + search);
}

const fetchURL = window.location.href.split("?")[0];
const subscriptionURL = new URL(fetchURL);
subscriptionURL.protocol = subscriptionURL.protocol === "http:" ? "ws:" : "wss:";
subscriptionURL.hash = "";

const NO_CREDENTIAL = `Add your credential in the Headers tab below, for example:

  {"Authorization": "Bearer tk_live_..."}

(an API key, or an OAuth access token). The schema, its documentation and the
explorer load as soon as it is there; then run a query with Ctrl-Enter.`;

// The credential in the headers editor's JSON ("Bearer <token>"), or "" while there is none:
// without one the page neither introspects nor shows the 401 it would get, but says what to do.
function credentialOf(headers) {
  try {
    const parsed = JSON.parse(headers || "{}");
    for (const name of Object.keys(parsed)) {
      const value = String(parsed[name]).trim();
      if (name.toLowerCase() === "authorization" && /^bearer\s+\S+$/i.test(value)) {
        return value;
      }
    }
  } catch (error) {
    return "";
  }
  return "";
}

function storedHeaders() {
  try {
    return window.localStorage.getItem("graphiql:headers") || undefined;
  } catch (error) {
    return undefined;
  }
}

function GraphiQLWithExplorer() {
  const [query, setQuery] = React.useState(parameters.q || EXAMPLE_QUERY);
  const [variables, setVariables] = React.useState(parameters.variables);
  const [headers, setHeaders] = React.useState(parameters.headers || storedHeaders());
  const credential = credentialOf(headers);
  // A new fetcher for each credential makes GraphiQL fetch the schema again with it.
  const fetcher = React.useMemo(
    () => GraphiQL.createFetcher({ url: fetchURL, subscriptionUrl: subscriptionURL.toString() }),
    [credential],
  );
  return React.createElement(GraphiQL, {
    fetcher: fetcher,
    schema: credential ? undefined : null,
    response: credential ? undefined : NO_CREDENTIAL,
    defaultEditorToolsVisibility: credential ? true : "headers",
    plugins: [GraphiQLPluginExplorer.explorerPlugin()],
    query: query,
    variables: variables,
    headers: headers,
    onEditQuery: (value) => { setQuery(value); updateURL({ q: value }); },
    onEditVariables: (value) => { setVariables(value); updateURL({ variables: value }); },
    onEditHeaders: setHeaders,
    inputValueDeprecation: true,
    isHeadersEditorEnabled: true,
    shouldPersistHeaders: true,
  });
}

ReactDOM.createRoot(document.getElementById("graphiql")).render(
  React.createElement(GraphiQLWithExplorer),
);
