// Run by tests/clients/test_generated_clients.py against a running server: the client lists with
// pagination, places and confirms an order, scans a ticket by its code and creates a webhook and
// sends it a test event. Prints one JSON object of what it saw.
import { ticketingClient } from "../src/index.js";

const api = ticketingClient(process.env.TICKETING_API_URL!, process.env.TICKETING_API_KEY!);

function need<T>(value: T | undefined, what: string, error: unknown): T {
  if (value === undefined) throw new Error(`${what}: ${JSON.stringify(error)}`);
  return value;
}

const year = process.env.EVENT_YEAR!;
const titles = ["Alpha", "Beta", "Gamma"];
for (const title of titles) {
  const { data, error } = await api.POST("/events", {
    body: { title, starts_at: `${year}-06-01T18:00:00Z` },
  });
  need(data, "create event", error);
}
const pages: string[][] = [];
for (const offset of [0, 2]) {
  const { data, error } = await api.GET("/events", {
    params: { query: { limit: 2, offset, sort: "title:asc" } },
  });
  pages.push(need(data, "list events", error).data.map((event) => event.title));
}
const { data: firstPage } = await api.GET("/events", { params: { query: { limit: 2 } } });
const eventId = firstPage!.data[0].id;
const ticketType = need(
  (await api.POST("/events/{event_id}/ticket_types", {
    params: { path: { event_id: eventId } },
    body: { name: "Regular", price: 12.5 },
  })).data,
  "create ticket type",
  null,
);
const timeslot = need(
  (await api.POST("/events/{event_id}/timeslots", {
    params: { path: { event_id: eventId } },
    body: {
      title: "Evening",
      starts_at: `${year}-06-01T18:00:00Z`,
      ends_at: `${year}-06-01T23:00:00Z`,
      total_available: 10,
      ticket_type_ids: [ticketType.id],
    },
  })).data,
  "create timeslot",
  null,
);
const placed = await api.POST("/orders", {
  body: {
    event_id: eventId,
    event_timeslot_id: timeslot.id,
    buyer_name: "Grace Hopper",
    buyer_email: "grace@example.com",
    channel: "api",
    payment_method: "invoice",
    tickets: [{ ticket_type_id: ticketType.id }],
  },
});
const order = need(placed.data, "place order", placed.error);
const confirmed = await api.POST("/orders/{order_id}/confirm", {
  params: { path: { order_id: order.id } },
});
const tickets = await api.GET("/events/{event_id}/tickets", {
  params: { path: { event_id: eventId }, query: { order_id: order.id } },
});
const listed = need(tickets.data, "list tickets", tickets.error);
if (typeof listed === "string") throw new Error("asked for JSON, got CSV");
const ticket = listed.data[0];
const scanner = await api.POST("/scanners", { body: { name: "Front door" } });
need(scanner.data, "create scanner", scanner.error);
const scanned = await api.POST("/scans", { body: { scannable_code: ticket.scannable_code } });
const again = await api.POST("/scans", { body: { scannable_code: ticket.scannable_code } });
const hook = await api.POST("/webhooks", {
  body: { url: process.env.WEBHOOK_URL!, event_types: ["order.confirmed"] },
});
const webhook = need(hook.data, "create webhook", hook.error);
const tested = await api.POST("/webhooks/{webhook_id}/test", {
  params: { path: { webhook_id: webhook.id } },
});
const missing = await api.GET("/orders/{order_id}", {
  params: { path: { order_id: "00000000-0000-4000-8000-000000000000" } },
});

console.log(
  JSON.stringify({
    pages,
    order_status: need(confirmed.data, "confirm", confirmed.error).status,
    scan: need(scanned.data, "scan", scanned.error).status,
    scan_again: need(again.data, "scan again", again.error).status,
    webhook_id: webhook.id,
    webhook_secret_prefix: webhook.secret.slice(0, 6),
    test_delivery: need(tested.data, "test webhook", tested.error).delivery_id,
    missing_status: missing.response.status,
    missing_title: missing.error?.title,
  }),
);
