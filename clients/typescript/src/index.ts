// The Event Ticketing API for TypeScript: `paths` and `components` are generated from the
// service's OpenAPI document by openapi-typescript (src/schema.d.ts, `scripts/clients`);
// openapi-fetch sends the requests, typed by them.
import createClient, { type Client } from "openapi-fetch";
import type { components, paths } from "./schema.js";

export type { components, paths };
export type Schemas = components["schemas"];
export type TicketingClient = Client<paths>;

/** A client of the service at `baseUrl` acting with `apiKey` (tk_live_... or tk_test_...). */
export function ticketingClient(baseUrl: string, apiKey: string): TicketingClient {
  return createClient<paths>({ baseUrl, headers: { Authorization: `Bearer ${apiKey}` } });
}
