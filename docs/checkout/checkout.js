// Checkout with a hold (docs/checkout.md): POST /holds keeps places while the buyer fills in the
// form, a countdown runs to the hold's expires_at, and POST /orders with hold_id places the order
// of exactly those places. Every POST carries an Idempotency-Key, so that a retry after a lost
// answer never holds or orders twice. Plain JavaScript, no library.
"use strict";

const $ = (id) => document.getElementById(id);
let hold = null; // the hold, and when it expires by this browser's clock
let timer = null;

function show(status) {
  $("status").textContent = status;
}

async function call(method, path, body) {
  const headers = { "Authorization": `Bearer ${$("token").value}` };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (method === "POST") headers["Idempotency-Key"] = crypto.randomUUID();
  const response = await fetch(`${$("api").value}${path}`, {
    method, headers, body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

function tick() {
  const left = Math.max(0, Math.round((hold.endsAt - Date.now()) / 1000));
  $("countdown").textContent = `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
  if (left === 0) expired("Your hold expired: the places went back on sale. Hold again to continue.");
}

function expired(message) {
  clearInterval(timer);
  hold = null;
  $("buyer").hidden = true;
  $("countdown").textContent = "0:00";
  $("countdown").classList.add("expired");
  show(message);
}

$("setup").addEventListener("submit", async (event) => {
  event.preventDefault();
  const places = Number($("places").value);
  const { status, body } = await call("POST", "/holds", {
    event_id: $("event").value,
    event_timeslot_id: $("timeslot").value,
    tickets: Array.from({ length: places }, () => ({ ticket_type_id: $("ticket-type").value })),
  });
  if (status !== 201) {
    show(body.type === "/problems/sold-out" ? `Sold out: ${body.detail}` : body.detail);
    return;
  }
  // Count down from what the server granted (expires_at - created_at), not from its clock.
  const granted = Date.parse(body.expires_at) - Date.parse(body.created_at);
  hold = { id: body.id, endsAt: Date.now() + granted };
  $("countdown").classList.remove("expired");
  $("buyer").hidden = false;
  show(`${places} places held`);
  clearInterval(timer);
  timer = setInterval(tick, 1000);
  tick();
});

$("buyer").addEventListener("submit", async (event) => {
  event.preventDefault();
  if (hold === null) return;
  const { status, body } = await call("POST", "/orders", {
    hold_id: hold.id, buyer_name: $("name").value, buyer_email: $("email").value,
    channel: "online", payment_method: "card",
  });
  if (status === 201) {
    clearInterval(timer);
    hold = null;
    $("buyer").hidden = true;
    $("countdown").textContent = "–";
    show(`Order placed: ${body.id} (${body.status}, ${body.total_price})`);
  } else if (body.type === "/problems/hold-unavailable") {
    expired("Your hold ran out before the order was placed. Hold again to continue.");
  } else {
    show(body.detail);
  }
});

$("release").addEventListener("click", async () => {
  if (hold === null) return;
  await call("DELETE", `/holds/${hold.id}`);
  clearInterval(timer);
  hold = null;
  $("buyer").hidden = true;
  $("countdown").textContent = "–";
  show("Places released");
});
