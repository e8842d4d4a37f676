// The scanner's service worker (DESIGN 25): it keeps the page and its modules, so a scanner that
// restarts without Wi-Fi opens /scan and goes on. The network first, whenever it answers in time,
// so a new release reaches the device at once; the kept copy when it does not. API calls pass by
// untouched: the page keeps its own work in IndexedDB.

const KEPT = "warehouse-scanner-page";
// Every file of scanner/static but this one (its stylesheet and modules): views.py writes their list
// in as it serves this worker, so a module added there is kept with no list here to keep in step.
const ASSETS = [];
const PAGE = ["/scan", "/scan/help", ...ASSETS];
const WAIT_MS = 4000; // a Wi-Fi that is connected but carries nothing must not hold the page up

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(KEPT).then((cache) => cache.addAll(PAGE)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(self.clients.claim());
});

self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== "GET" || url.origin !== self.location.origin) return;
  if (url.pathname !== "/scan" && url.pathname !== "/scan/help" && !url.pathname.startsWith("/scan/assets/")) return;
  event.respondWith(networkFirst(event.request, url));
});

async function networkFirst(request, url) {
  const cache = await caches.open(KEPT);
  const key = url.pathname; // the page's ?v= and a #pair= change nothing of what is kept
  try {
    const response = await fetch(request, { signal: AbortSignal.timeout(WAIT_MS) });
    if (response.ok) await cache.put(key, response.clone());
    return response;
  } catch (error) {
    const kept = await cache.match(key);
    if (kept) return kept;
    throw error;
  }
}
