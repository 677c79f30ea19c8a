/* The live door view: follows the page's scan stream (server-sent events) and puts each scan at
   the top of the list, with the event's new counts. Without this script the page still works:
   it lists the latest admissions and has a refresh button. No dependencies. */
(function () {
  "use strict";
  var door = document.getElementById("door");
  if (!door || !window.EventSource) { return; }
  var list = document.getElementById("door-scans");
  var live = document.getElementById("door-live");
  var empty = document.getElementById("door-empty");
  var KEEP = 50;

  function text(tag, className, value) {
    var element = document.createElement(tag);
    element.className = className;
    element.textContent = value;
    return element;
  }

  function setCounts(scan) {
    document.getElementById("door-admitted").textContent = scan.admitted;
    document.getElementById("door-sold").textContent = scan.sold;
    document.getElementById("door-capacity").textContent = scan.capacity;
    document.getElementById("door-inside").textContent = scan.inside;
    var meter = document.querySelector("#door-meter .meter");
    if (meter) {
      var share = scan.sold ? Math.min(100, 100 * scan.admitted / scan.sold) : 0;
      meter.firstElementChild.style.width = share.toFixed(1) + "%";
      meter.setAttribute("aria-label", "Admitted of sold: " + scan.admitted + " of " + scan.sold);
      meter.classList.toggle("meter-full", scan.sold > 0 && scan.admitted >= scan.sold);
    }
  }

  function show(scan) {
    var item = document.createElement("li");
    item.className = "scan scan-" + scan.status + " scan-new";
    item.appendChild(text("span", "scan-outcome", scan.headline));
    item.appendChild(text("span", "scan-owner", scan.owner || "—"));
    item.appendChild(text("span", "scan-detail", [scan.ticket_type, scan.scanner].filter(Boolean).join(" · ")));
    var time = text("time", "scan-time", scan.at);
    time.title = scan.at_utc;
    item.appendChild(time);
    list.insertBefore(item, list.firstChild);
    while (list.children.length > KEEP) { list.removeChild(list.lastChild); }
    if (empty) { empty.hidden = true; }
    setCounts(scan);
  }

  var stream = new EventSource(door.getAttribute("data-stream"));
  stream.addEventListener("ready", function () {
    door.setAttribute("data-live", "on");
    live.textContent = "Live: scans appear here as they happen.";
  });
  stream.addEventListener("scan", function (message) { show(JSON.parse(message.data)); });
  stream.addEventListener("signed-out", function () {
    stream.close();
    door.setAttribute("data-live", "off");
    live.textContent = "Signed out: this view no longer updates. Sign in again to follow the door.";
  });
  stream.addEventListener("error", function () {
    door.setAttribute("data-live", "off");
    live.textContent = "Reconnecting… (the list below may miss scans until then)";
  });
}());
