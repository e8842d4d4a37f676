// What the scanner keeps on the device, in IndexedDB and nowhere else: the page is drawn from it, so
// a reload, a browser crash or a flat battery loses nothing that was written.
//   kv:       the pairing, the open flow, the catalogue, warehouses, orders, numbers, the sender's lease
//   batches:  the queue, one entry per batch (or put-back) waiting, sending, booked or needing attention

const NAME = "warehouse-scanner";
// Written to disk before the promise resolves: a scan the page confirmed survives a power cut.
const STRICT = { durability: "strict" };
let opened = null;

function database() {
  opened ??= new Promise((resolve, reject) => {
    const request = indexedDB.open(NAME, 1);
    request.onupgradeneeded = () => {
      request.result.createObjectStore("kv");
      request.result.createObjectStore("batches", { keyPath: "id" });
    };
    request.onsuccess = () => {
      // Another tab of a newer page wants to upgrade: let it.
      request.result.onversionchange = () => { request.result.close(); opened = null; };
      resolve(request.result);
    };
    request.onerror = () => { opened = null; reject(request.error); };
  });
  return opened;
}

function answer(request) {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

function committed(transaction) {
  return new Promise((resolve, reject) => {
    transaction.oncomplete = () => resolve();
    transaction.onerror = () => reject(transaction.error);
    transaction.onabort = () => reject(transaction.error || new Error("The device's storage refused the write."));
  });
}

/** The value kept under `key` (undefined when none). */
export async function get(key) {
  const db = await database();
  return answer(db.transaction("kv").objectStore("kv").get(key));
}

/** Keep `value` under `key` (undefined removes it). */
export async function put(key, value) {
  return change(key, () => value);
}

/** Read, change and write one value in one transaction: two tabs never lose each other's change.
 * `change` is synchronous and answers the new value (undefined removes it). */
export async function change(key, changeFn) {
  const db = await database();
  const transaction = db.transaction("kv", "readwrite", STRICT);
  const kv = transaction.objectStore("kv");
  const before = await answer(kv.get(key));
  const after = changeFn(before);
  if (after === undefined) kv.delete(key); else kv.put(after, key);
  await committed(transaction);
  return after;
}

/** The batches store: every entry, one entry, and changes of one in a transaction. */
export const batches = {
  async all() {
    const db = await database();
    return answer(db.transaction("batches").objectStore("batches").getAll());
  },
  async add(entry) {
    const db = await database();
    const transaction = db.transaction("batches", "readwrite", STRICT);
    transaction.objectStore("batches").add(entry);
    await committed(transaction);
  },
  /** changeFn(entry) answers the entry changed, or undefined to delete it; null when none. */
  async change(id, changeFn) {
    const db = await database();
    const transaction = db.transaction("batches", "readwrite", STRICT);
    const store = transaction.objectStore("batches");
    const before = await answer(store.get(id));
    if (before === undefined) { transaction.abort(); return null; }
    const after = changeFn(before);
    if (after === undefined) store.delete(id); else store.put(after);
    await committed(transaction);
    return after ?? null;
  },
};
