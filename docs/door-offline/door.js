// Offline door (CONTRACT.md sections 11 and 17, docs/signed-codes.md). Online, it downloads the
// event's public keys (GET /events/{id}/scan-keys) and revoked tickets (GET /events/{id}/
// revocations) into localStorage. Offline, it verifies signed codes itself with WebCrypto's
// Ed25519, admits each ticket once, and queues every scan of a genuine code with a nonce and the
// moment it happened. Back online, it uploads the queue (POST /scans/batch) and refreshes the
// revocations since the last download. Plain JavaScript, no library, nothing from elsewhere.

const STORE = "door-offline"; // the localStorage key of everything this door keeps
const PREFIX = "T1.";
// 186 characters: 137 bytes in base64url, no padding; the last character's two spare bits are 0
const CODE = /^T1\.[A-Za-z0-9_-]{182}[AEIMQUYcgkosw048]$/;
const VERSION = 1;
const PAYLOAD_BYTES = 73; // version, kid (8), ticket, event, ticket type and timeslot ids (16 each)
const BATCH = 500; // the most items POST /scans/batch takes
const CLOCKS_APART = 60 * 60 * 1000; // a refused scanned_at newer than this is a clock problem
const RECENT = 8;

const $ = (id) => document.getElementById(id);
const verifiers = new Map(); // kid -> CryptoKey, imported once

// What survives a reload: the download, this door's admissions and the scans not yet uploaded.
// The token is never stored: it is typed again after a reload.
let door = JSON.parse(localStorage.getItem(STORE) || "null") || {
  api: "", eventId: "", scannerId: "", keys: [], revoked: [], since: null, downloadedAt: null,
  admitted: {}, queue: [],
};

function save() {
  localStorage.setItem(STORE, JSON.stringify(door));
  const waiting = door.queue.length;
  $("queued").textContent = String(waiting);
  $("queued").nextSibling.textContent = ` scan${waiting === 1 ? "" : "s"} waiting to upload.`;
}

function fromBase64url(text) {
  const base64 = text.replaceAll("-", "+").replaceAll("_", "/");
  const binary = atob(base64 + "=".repeat((4 - (base64.length % 4)) % 4));
  return Uint8Array.from(binary, (char) => char.charCodeAt(0));
}

function toBase64url(bytes) {
  const base64 = btoa(String.fromCharCode(...bytes));
  return base64.replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

function uuid(bytes) {
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

// A code's parts, or null when it is not a code of the format (its signature is not checked yet).
function decode(code) {
  if (!CODE.test(code)) return null;
  const raw = fromBase64url(code.slice(PREFIX.length));
  const payload = raw.slice(0, PAYLOAD_BYTES);
  const id = (index) => uuid(payload.slice(9 + 16 * index, 25 + 16 * index));
  return {
    version: payload[0], kid: toBase64url(payload.slice(1, 9)), payload,
    signature: raw.slice(PAYLOAD_BYTES), ticketId: id(0), eventId: id(1),
  };
}

async function verifier(key) {
  if (!verifiers.has(key.kid)) {
    const raw = fromBase64url(key.public_key);
    verifiers.set(key.kid, await crypto.subtle.importKey("raw", raw, { name: "Ed25519" }, false, ["verify"]));
  }
  return verifiers.get(key.kid);
}

// The door's decision on a code, with no network: {admitted, title, detail, ticketId?}.
async function check(code) {
  const refused = (detail, ticketId) => ({ admitted: false, title: "Refused", detail, ticketId });
  const parts = decode(code);
  if (parts === null) return refused("This is not a signed ticket code (T1.).");
  if (parts.version !== VERSION) return refused(`Unknown code version ${parts.version}.`);
  const key = door.keys.find((candidate) => candidate.kid === parts.kid);
  if (key === undefined) return refused("Signed with a key this door does not hold (another event's code?).");
  if (key.retired_at !== null) return refused("Signed with a retired key: the ticket has a newer code.");
  const genuine = await crypto.subtle.verify(
    { name: "Ed25519" }, await verifier(key), parts.signature, parts.payload,
  );
  if (!genuine) return refused("The signature does not match: a forged or damaged code.");
  if (parts.eventId !== door.eventId) return refused("A ticket of another event.");
  // From here the code is genuine: the scan is queued for the server whatever the decision.
  const { ticketId } = parts;
  // A revocation names the ticket (cancelled: every code of it) or one of its codes (replaced:
  // the codes signed by a key that is retired now).
  const revoked = door.revoked.find(
    (revocation) => revocation.ticket_id === ticketId && [null, parts.kid].includes(revocation.kid),
  );
  if (revoked !== undefined) {
    const why = revoked.reason === "cancelled" ? "This ticket was cancelled." : "This code was replaced.";
    return refused(why, ticketId);
  }
  if (ticketId in door.admitted) {
    const at = new Date(door.admitted[ticketId]).toLocaleTimeString();
    return refused(`Already admitted at this door at ${at}.`, ticketId);
  }
  return { admitted: true, title: "Admitted", detail: `Ticket ${ticketId.slice(0, 8)}…`, ticketId };
}

function showVerdict(verdict) {
  $("verdict").className = `verdict ${verdict.admitted ? "admitted" : "refused"}`;
  $("verdict-title").textContent = verdict.title;
  $("verdict-detail").textContent = verdict.detail;
  const item = document.createElement("li");
  item.textContent = `${new Date().toLocaleTimeString()} ${verdict.title}: ${verdict.detail}`;
  $("recent").prepend(item);
  while ($("recent").children.length > RECENT) $("recent").lastChild.remove();
}

$("scan").addEventListener("submit", async (submitted) => {
  submitted.preventDefault();
  const code = $("code").value.trim();
  $("code").value = "";
  $("code").focus();
  if (code === "") return;
  const scannedAt = new Date().toISOString();
  const verdict = await check(code);
  if (verdict.admitted) door.admitted[verdict.ticketId] = scannedAt;
  if (verdict.ticketId !== undefined) {
    door.queue.push({
      ticket_id: verdict.ticketId, nonce: crypto.randomUUID(), scanned_at: scannedAt,
      admitted: verdict.admitted,
    });
  }
  save();
  showVerdict(verdict);
});

// --- Online: the API, with the token typed into the form -------------------------------------

async function call(method, path, body) {
  const headers = { "Authorization": `Bearer ${$("token").value.trim()}` };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const response = await fetch(`${door.api}${path}`, {
    method, headers, body: body === undefined ? undefined : JSON.stringify(body),
  });
  const answer = await response.json();
  if (!response.ok) {
    // A 400 names each field it refuses in errors[] (e.g. scans[3].scanned_at).
    const failure = new Error(answer.detail || `HTTP ${response.status}`);
    throw Object.assign(failure, { errors: answer.errors || [] });
  }
  return answer;
}

// Keys in full (a rotation adds one, a retirement dates one); revocations since the last time.
async function refresh() {
  const event = encodeURIComponent(door.eventId);
  door.keys = (await call("GET", `/events/${event}/scan-keys`)).keys;
  verifiers.clear();
  const since = door.since === null ? "" : `?since=${encodeURIComponent(door.since)}`;
  const revocations = await call("GET", `/events/${event}/revocations${since}`);
  door.revoked.push(...revocations.data.map(({ ticket_id, reason, kid }) => ({ ticket_id, reason, kid })));
  door.since = revocations.next_since;
  door.downloadedAt = new Date().toISOString();
  save();
  showPrepared();
}

function showPrepared() {
  if (door.downloadedAt === null) return;
  const plural = (count, noun) => `${count} ${noun}${count === 1 ? "" : "s"}`;
  const tickets = (reason) => new Set(
    door.revoked.filter((revocation) => revocation.reason === reason).map((r) => r.ticket_id),
  ).size;
  const active = door.keys.filter((key) => key.retired_at === null).length;
  $("prepared").textContent = `${plural(active, "active key")} (${door.keys.length - active} retired), `
    + `${plural(tickets("cancelled"), "cancelled ticket")}, `
    + `${plural(tickets("code_replaced"), "replaced code")}; `
    + `downloaded ${new Date(door.downloadedAt).toLocaleString()}.`;
}

$("setup").addEventListener("submit", async (submitted) => {
  submitted.preventDefault();
  const eventId = $("event").value.trim();
  if (eventId !== door.eventId) {
    // Another event: its keys, revocations and admissions start afresh; queued scans stay.
    door = { ...door, eventId, keys: [], revoked: [], since: null, downloadedAt: null, admitted: {} };
  }
  door.api = $("api").value.replace(/\/+$/, "");
  door.scannerId = $("scanner").value.trim();
  $("prepared").textContent = "Downloading…";
  try {
    await refresh();
  } catch (error) {
    $("prepared").textContent = `Could not download: ${error.message}`;
  }
});

let uploading = false;

// The items of a batch the server refused as scanned too long ago: it keeps offline scans for
// TICKETING_OFFLINE_MAX_AGE_HOURS (72 by default), and one older makes the whole batch a 400 naming
// it (CONTRACT.md section 11). They will never be recorded, so the door drops them and sends the
// rest. A refused scanned_at of the last hour means the clocks disagree: nothing is dropped.
function tooOld(error, items) {
  return (error.errors || []).map((named) => /^scans\[(\d+)\]\.scanned_at$/.exec(named.field))
    .filter((match) => match !== null).map((match) => items[Number(match[1])])
    .filter((item) => item !== undefined && Date.now() - Date.parse(item.scanned_at) > CLOCKS_APART);
}

async function upload() {
  if (uploading || door.queue.length === 0) return;
  uploading = true;
  $("uploaded").textContent = "Uploading…";
  $("results").replaceChildren();
  let sent = 0;
  let dropped = 0;
  try {
    while (door.queue.length > 0) {
      const items = door.queue.slice(0, BATCH);
      const body = {
        scans: items.map(({ ticket_id, nonce, scanned_at }) => ({ ticket_id, nonce, scanned_at })),
      };
      if (door.scannerId) body.scanner_id = door.scannerId;
      let results;
      try {
        // A batch sent again after a lost answer is answered as the first time (the nonces).
        ({ results } = await call("POST", "/scans/batch", body));
      } catch (error) {
        const old = tooOld(error, items);
        if (old.length === 0) throw error;
        old.forEach(showTooOld);
        door.queue = door.queue.filter((item) => !old.includes(item));
        dropped += old.length;
        save();
        continue;
      }
      results.forEach((result, index) => showResult(items[index], result));
      door.queue = door.queue.slice(items.length);
      sent += items.length;
      save();
    }
  } catch (error) {
    $("uploaded").textContent = `Upload stopped (${error.message}): `
      + `${door.queue.length} scans kept, ${sent} uploaded${tooOldCount(dropped)}.`;
    return;
  } finally {
    uploading = false;
  }
  try {
    await refresh();
    $("uploaded").textContent = `${sent} scans uploaded${tooOldCount(dropped)}; revocations refreshed.`;
  } catch (error) {
    $("uploaded").textContent = `${sent} scans uploaded${tooOldCount(dropped)}; `
      + `could not refresh (${error.message}).`;
  }
}

const tooOldCount = (dropped) => (dropped === 0 ? "" : `, ${dropped} too old to record`);

function showTooOld(item) {
  const line = document.createElement("li");
  line.textContent = `${item.ticket_id.slice(0, 8)}… not recorded: scanned too long ago for the server`;
  line.className = "disagrees";
  $("results").append(line);
}

function showResult(item, result) {
  const line = document.createElement("li");
  const reason = result.reason ? ` (${result.reason})` : "";
  line.textContent = `${item.ticket_id.slice(0, 8)}… ${result.status}${reason}`;
  if (item.admitted && result.status !== "valid") {
    // Admitted here offline, refused by the server: e.g. scanned at another door first.
    line.textContent += ": admitted here offline, refused by the server";
    line.className = "disagrees";
  }
  $("results").append(line);
}

$("upload").addEventListener("click", upload);

function showNetwork() {
  $("network").textContent = navigator.onLine ? "online" : "offline";
  $("network").className = navigator.onLine ? "online" : "offline";
}

window.addEventListener("offline", showNetwork);
window.addEventListener("online", () => {
  showNetwork();
  if ($("token").value.trim() !== "") upload();
});

$("api").value = door.api;
$("event").value = door.eventId;
$("scanner").value = door.scannerId;
showNetwork();
showPrepared();
save();
