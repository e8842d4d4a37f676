// The scanner's service worker (DESIGN 25, 30): it keeps the page and its modules, so a scanner that
// restarts without Wi-Fi opens /scan and goes on. The page itself and its help come from the network
// first, whenever it answers in time, so a new release reaches the device at once; the kept copy when
// it does not. The page's files are at content-hashed addresses, which name their bytes for ever: kept
// ones are served from here without asking. API calls pass by untouched: the page keeps its own work in
// IndexedDB.

const KEPT = "warehouse-scanner-page";
// Every file of the page at its hashed address, written in by scanner/views.py: a release that changes
// any file changes this line, so the browser installs this worker anew, which keeps the new files.
const ASSETS = [];
const PAGES = ["/scan", "/scan/help"];
const WAIT_MS = 4000; // a Wi-Fi that is connected but carries nothing must not hold the page up

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(KEPT).then((cache) => Promise.all([...PAGES, ...ASSETS].map(async (key) => {
    const response = await fetch(key);
    if (!response.ok) throw new Error(`${key}: ${response.status}`); // the old worker stays
    await keep(cache, key, response);
  }))).then(() => self.skipWaiting()));
});

// One answer kept per address. Each varies by the Accept-Encoding it was fetched with (it was
// compressed for it), so a put alone would keep an older answer beside the new one whenever the
// two requests differ in it; and it is found by its address alone, which a request made by the
// page need not match in that header.
async function keep(cache, key, response) {
  await cache.delete(key, { ignoreVary: true });
  await cache.put(key, response);
}

self.addEventListener("activate", (event) => {
  // The files of an earlier release are let go once this one holds its own.
  event.waitUntil(caches.open(KEPT).then(async (cache) => {
    const wanted = new Set([...PAGES, ...ASSETS]);
    for (const request of await cache.keys()) {
      const path = new URL(request.url).pathname;
      if (!wanted.has(path)) await cache.delete(request);
    }
  }).then(() => self.clients.claim()));
});

self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== "GET" || url.origin !== self.location.origin) return;
  if (ASSETS.includes(url.pathname)) {
    event.respondWith(keptFirst(event.request, url));
  } else if (PAGES.includes(url.pathname) || url.pathname.startsWith("/scan/assets/")) {
    event.respondWith(networkFirst(event.request, url));
  }
});

async function keptFirst(request, url) {
  const cache = await caches.open(KEPT);
  const kept = await cache.match(url.pathname, { ignoreVary: true });
  if (kept) return kept;
  const response = await fetch(request);
  if (response.ok) await keep(cache, url.pathname, response.clone());
  return response;
}

async function networkFirst(request, url) {
  const cache = await caches.open(KEPT);
  const key = url.pathname; // a #pair= changes nothing of what is kept
  try {
    const response = await fetch(request, { signal: AbortSignal.timeout(WAIT_MS) });
    if (response.ok && PAGES.includes(key)) await keep(cache, key, response.clone());
    return response;
  } catch (error) {
    const kept = await cache.match(key, { ignoreVary: true });
    if (kept) return kept;
    throw error;
  }
}
