// Live door view: the event's title over HTTP (POST /graphql, which needs this page's origin in
// TICKETING_CORS_ORIGINS when the page is served from elsewhere), then the door's scans over the
// graphql-transport-ws protocol (WebSocket /graphql). Plain JavaScript, no library.
"use strict";

const TITLE = "query Title($id: ID!) { event(id: $id) { title } }";
const SCANS = `subscription Door($eventId: ID) {
  scans(eventId: $eventId) { ticketId status reason scannedAt }
}`;
const RECENT = 10;

const $ = (id) => document.getElementById(id);
const counts = { admitted: 0, refused: 0 };
let socket = null;

function show(status) {
  $("status").textContent = status;
}

async function graphql(api, token, query, variables) {
  const response = await fetch(`${api}/graphql`, {
    method: "POST",
    headers: { "Authorization": `Bearer ${token}`, "Content-Type": "application/json" },
    body: JSON.stringify({ query, variables }),
  });
  const body = await response.json();
  if (!response.ok) throw new Error(body.detail || `HTTP ${response.status}`);
  if (body.errors) throw new Error(body.errors[0].message);
  return body.data;
}

function count(scan) {
  const key = scan.status === "valid" ? "admitted" : "refused";
  counts[key] += 1;
  $(key).textContent = String(counts[key]);
  const item = document.createElement("li");
  const time = new Date(scan.scannedAt).toLocaleTimeString();
  item.textContent = `${time} ${scan.status}${scan.reason ? ` (${scan.reason})` : ""}`;
  $("recent").prepend(item);
  while ($("recent").children.length > RECENT) $("recent").lastChild.remove();
}

function watch(api, token, eventId) {
  const url = api.replace(/^http/, "ws") + "/graphql";
  socket = new WebSocket(url, "graphql-transport-ws");
  socket.onopen = () => {
    show("authenticating");
    socket.send(JSON.stringify({
      type: "connection_init", payload: { authorization: `Bearer ${token}` },
    }));
  };
  socket.onmessage = (message) => {
    const data = JSON.parse(message.data);
    if (data.type === "connection_ack") {
      show("live");
      socket.send(JSON.stringify({
        id: "door", type: "subscribe", payload: { query: SCANS, variables: { eventId } },
      }));
    } else if (data.type === "next" && data.payload.data) {
      count(data.payload.data.scans);
    } else if (data.type === "error") {
      show(`refused: ${data.payload[0].message}`);
    } else if (data.type === "ping") {
      socket.send(JSON.stringify({ type: "pong" }));
    }
  };
  socket.onclose = (event) => {
    show(event.code === 4403 ? "the token was refused" : `disconnected (${event.code})`);
  };
}

$("connect").addEventListener("submit", async (submitted) => {
  submitted.preventDefault();
  const api = $("api").value.replace(/\/+$/, "");
  const token = $("token").value.trim();
  const eventId = $("event").value.trim();
  if (socket) socket.close();
  show("connecting");
  try {
    const data = await graphql(api, token, TITLE, { id: eventId });
    $("event-title").textContent = data.event.title;
  } catch (error) {
    show(`could not read the event: ${error.message}`);
    return;
  }
  watch(api, token, eventId);
});
